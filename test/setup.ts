// Shared test setup: DOM matchers for component tests (harmless in the node environment).
import '@testing-library/jest-dom/vitest';
