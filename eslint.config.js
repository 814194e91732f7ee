// ESLint with typescript-eslint (TypeScript pinned to 5.9 for its JS API). oxlint was tried first:
// its platform binding packages other than linux-x64 are not in this registry, so `npm ci` failed.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers, bottom up: core (pure TypeScript) ← db ← workers ← state ← ui, and cli beside them on
 * core only. A folder may import the layers below it, never those above (test/lint/layers.test.ts
 * shows a violation failing); ui reaches db and workers through state: it imports their types only.
 * No file reaches into node_modules by a relative path (past a package's exports, and past these rules).
 */
const above = (...folders) =>
  folders.map((f) => ({
    group: [`**/${f}`, `**/${f}/**`],
    message: `this layer may not import src/${f} (the layers: core ← db ← workers ← state ← ui; cli on core)`,
  }));
/** Layers whose types a layer may import, but no value: ui's db and workers (their values go through state). */
const typesOnly = (...folders) =>
  folders.map((f) => ({
    group: [`**/${f}`, `**/${f}/**`],
    allowTypeImports: true,
    message: `only types may be imported from src/${f} here: its values go through src/state`,
  }));
const noNodeModules = {
  regex: '(^|/)node_modules(/|$)',
  message:
    'import the package by its name (an alias in vite.config.ts and tsconfig.json paths if its exports hide the file)',
};
const packages = (...names) =>
  names.map((name) => ({
    group: [name, `${name}/**`],
    message: `${name} is not for this layer (docs/architecture.md: The layers)`,
  }));
// typescript-eslint's no-restricted-imports (the base rule's options, and allowTypeImports).
const layer = (files, folders, pkgs = [], typeFolders = []) => ({
  files,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [...above(...folders), ...typesOnly(...typeFolders), ...packages(...pkgs), noNodeModules],
      },
    ],
  },
});

/**
 * Inside core, the folders that must not run back up (docs/architecture.md: Source map): the codecs sit
 * below the readers (ingest), the readers below a sample of a large crawl (sample); the signatures below
 * the candidates, dust and eval below the clusters. Each entry: the files, the core folders they may not
 * import, and core's own layer rule repeated (a later rule for the same files replaces the earlier one).
 */
const coreOutside = ['db', 'workers', 'state', 'ui', 'cli'];
const corePackages = ['react', 'react-dom', 'dexie', 'comlink', 'zustand', 'd3'];
const coreAbove = (...folders) =>
  folders.map((f) => ({
    group: [`../${f}`, `../${f}/**`, `**/core/${f}`, `**/core/${f}/**`],
    message: `src/core/${f} is above this folder in core (docs/architecture.md: Source map)`,
  }));
const coreFolder = (folder, folders) => ({
  files: [`src/core/${folder}/**`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          ...coreAbove(...folders),
          ...above(...coreOutside),
          ...packages(...corePackages),
          noNodeModules,
        ],
      },
    ],
  },
});

/** Globals that both a worker and Node have: what src/core may use (it runs in both). */
const workerAndNode = Object.fromEntries(
  Object.entries(globals.worker).filter(([k]) => Object.hasOwn(globals.node, k)),
);

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.bench', 'test-results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noNodeModules] }],
    },
  },
  {
    // Every file but src/core's may use the browser's and Node's globals.
    files: ['**/*.{ts,tsx}'],
    ignores: ['src/core/**'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    // `import { type A }` keeps an import of its module (verbatimModuleSyntax), which a types-only layer
    // rule would let through: `import type` leaves none.
    files: ['src/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-import-type-side-effects': 'error' },
  },
  layer(['src/core/**'], coreOutside, corePackages),
  coreFolder('codecs', ['ingest', 'sample']),
  coreFolder('ingest', ['sample']),
  coreFolder('signatures', ['candidates']),
  coreFolder('dust', ['clusters']),
  coreFolder('eval', ['clusters']),
  layer(['src/db/**'], ['workers', 'state', 'ui', 'cli'], ['react', 'react-dom', 'comlink', 'zustand', 'd3']),
  // Storage goes through src/db: no layer above it imports Dexie itself.
  layer(['src/workers/**'], ['state', 'ui', 'cli'], ['react', 'react-dom', 'zustand', 'd3', 'dexie']),
  layer(['src/state/**'], ['ui', 'cli'], ['react-dom', 'd3', 'dexie']),
  layer(['src/ui/**'], ['cli'], ['dexie'], ['db', 'workers']),
  layer(
    ['src/cli/**'],
    ['db', 'workers', 'state', 'ui'],
    ['react', 'react-dom', 'dexie', 'comlink', 'zustand', 'd3'],
  ),
  {
    // src/core runs in a worker and in Node: only the globals both have (no window, document,
    // localStorage; no process, Buffer, require), checked by no-undef with ES builtins.
    files: ['src/core/**/*.ts'],
    languageOptions: { globals: { ...globals.es2021, ...workerAndNode } },
    rules: { 'no-undef': 'error' },
  },
);
