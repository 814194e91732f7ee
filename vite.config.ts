/// <reference types="vitest/config" />
import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The app's version, as every export names it (src/ui/version.ts). */
const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * The built app's Content-Security-Policy: everything from this origin only, workers from self (or blob:),
 * WebAssembly but no eval, no plugins, no inline script, no base or form targets. Crawled pages are
 * shown as text, so nothing crawled may ever load or run; this makes that a property of the page, not
 * only of the code. Put in the built index.html (any static server then serves it) and sent by
 * `vite preview`. The dev server needs inline scripts and styles (HMR), so it goes without.
 */
export const CSP = [
  "default-src 'self'",
  // WebAssembly may be compiled (the ingest workers' SHA-1, src/workers/natives.ts); never JS from strings.
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function contentSecurityPolicy(): Plugin {
  return {
    name: 'content-security-policy',
    apply: 'build',
    transformIndexHtml: (html) =>
      html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`),
  };
}

export default defineConfig({
  plugins: [react(), contentSecurityPolicy()],
  define: { __APP_VERSION__: JSON.stringify(version) },
  worker: { format: 'es' },
  // The sample crawl is an asset imported with ?inline (src/ui/sample.ts), in its own chunk.
  assetsInclude: ['**/*.warc.gz'],
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 2048 },
  preview: { headers: { 'Content-Security-Policy': CSP } },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
  },
});
