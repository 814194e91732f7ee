/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  // The sample crawl is an asset imported with ?inline (src/ui/sample.ts).
  assetsInclude: ['**/*.warc.gz'],
  build: { target: 'es2022', sourcemap: true },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
  },
});
