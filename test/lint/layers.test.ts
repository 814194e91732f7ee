/**
 * The layers are enforced by eslint.config.js: an import that runs up the layers, a value ui takes from
 * db or workers (their types it may import), a package that is not the layer's, a relative path into
 * node_modules, or a browser- or Node-only global in src/core fails the lint; the same code where the
 * layer allows it passes. (The tree itself passes: `npm run lint` is part of the test command.)
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: `${process.cwd()}/${file}` });
  return r.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the layers, enforced by ESLint', () => {
  const up: [string, string][] = [
    ['src/core/text/probe.ts', "import { db } from '../../db/schema';\nexport const y = db;\n"],
    [
      'src/core/dust/probe.ts',
      "import { useDatasets } from '../../state/datasets';\nexport const y = useDatasets;\n",
    ],
    ['src/db/probe.ts', "import { api } from '../workers/client';\nexport const y = api;\n"],
    [
      'src/workers/probe.ts',
      "import { useDatasets } from '../state/datasets';\nexport const y = useDatasets;\n",
    ],
    ['src/state/probe.ts', "import { App } from '../ui/App';\nexport const y = App;\n"],
    ['src/cli/probe.ts', "import { db } from '../db/schema';\nexport const y = db;\n"],
    ['src/core/text/probe.ts', "import Dexie from 'dexie';\nexport const y = Dexie;\n"],
    ['src/state/probe.ts', "import { liveQuery } from 'dexie';\nexport const y = liveQuery;\n"],
    ['src/ui/probe.ts', "import Dexie from 'dexie';\nexport const y = Dexie;\n"],
    ['src/cli/probe.ts', "import { createRoot } from 'react-dom/client';\nexport const y = createRoot;\n"],
    ['src/ui/probe.ts', "import { db } from '../db/schema';\nexport const y = db;\n"],
    [
      'src/ui/clusters/probe.ts',
      "import { loadContent } from '../../db/page-contents';\nexport const y = loadContent;\n",
    ],
    [
      'src/ui/probe.ts',
      "import { startArchiveExportWorker } from '../workers/client';\nexport const y = startArchiveExportWorker;\n",
    ],
    ['src/ui/probe.ts', "export { embeddedSampleBytes } from '../workers/embedded-sample';\n"],
    [
      'src/core/ingest/probe.ts',
      "import { BrotliDecompress } from '../../../node_modules/brotli/dec/decode.js';\nexport const y = BrotliDecompress;\n",
    ],
    ['test/probe.ts', "import { x } from '../node_modules/some-package/lib/x.js';\nexport const y = x;\n"],
    ['src/core/codecs/probe.ts', "export { ingest } from '../ingest/pipeline';\n"],
    ['src/core/ingest/probe.ts', "export { planSample } from '../sample/sample-plan';\n"],
    ['src/core/signatures/probe.ts', "export { PairCollector } from '../candidates/pairs';\n"],
    ['src/core/dust/probe.ts', "export { connectedComponents } from '../clusters/clusters';\n"],
  ];
  for (const [file, code] of up)
    it(`refuses ${code.split('\n')[0]} in ${file}`, async () => {
      const got = await problems(file, code);
      expect(
        got.some((p) => p.startsWith('@typescript-eslint/no-restricted-imports')),
        got.join('\n'),
      ).toBe(true);
    });

  it('lets each layer import the layers below it', async () => {
    expect(
      await problems('src/db/probe.ts', "import { hash32 } from '../core/hash';\nexport const y = hash32;\n"),
    ).toEqual([]);
    expect(
      await problems(
        'src/ui/probe.ts',
        "import { useDatasets } from '../state/datasets';\nexport const y = useDatasets;\n",
      ),
    ).toEqual([]);
    expect(
      await problems(
        'src/cli/probe.ts',
        "import { hash32 } from '../core/hash';\nexport const y = hash32;\n",
      ),
    ).toEqual([]);
    expect(
      await problems('src/core/sample/probe.ts', "export { ingest } from '../ingest/pipeline';\n"),
    ).toEqual([]);
    expect(
      await problems('src/core/ingest/probe.ts', "export { MultiGunzip } from '../codecs/gzip';\n"),
    ).toEqual([]);
    expect(await problems('src/core/codecs/probe.ts', "export { joinBytes } from '../bytes';\n")).toEqual([]);
  });

  it("lets ui import db's and workers' types, by `import type`", async () => {
    const types =
      "import type { Dataset } from '../db/schema';\n" +
      "import type { IngestResult } from '../workers/ingest-job';\n" +
      'export type Y = [Dataset, IngestResult];\n';
    expect(await problems('src/ui/probe.ts', types)).toEqual([]);
    // Inline type specifiers alone leave an import of the module behind (verbatimModuleSyntax).
    const inline = "import { type Dataset } from '../db/schema';\nexport type Y = Dataset;\n";
    expect(await problems('src/ui/probe.ts', inline)).toEqual([
      expect.stringMatching(/^@typescript-eslint\/no-import-type-side-effects: /),
    ]);
  });

  it('lets a package be imported by its name, an alias of a hidden file included', async () => {
    const code =
      "import { BrotliDecompress } from 'brotli/dec/decode.js';\nexport const y = BrotliDecompress;\n";
    expect(await problems('src/core/ingest/probe.ts', code)).toEqual([]);
  });

  it('keeps src/core to the globals a worker and Node both have', async () => {
    const browser = await problems(
      'src/core/text/probe.ts',
      'export const y = window.location.href + document.title;\n',
    );
    expect(browser).toEqual(["no-undef: 'window' is not defined.", "no-undef: 'document' is not defined."]);
    const node = await problems(
      'src/core/text/probe.ts',
      'export const y = process.env.X ?? Buffer.from([]).length;\n',
    );
    expect(node).toEqual(["no-undef: 'process' is not defined.", "no-undef: 'Buffer' is not defined."]);
    const both =
      'export const y = new TextDecoder().decode(new Uint8Array(1)) + performance.now() + new URL("http://a/").href;\n';
    expect(await problems('src/core/text/probe.ts', both)).toEqual([]);
    // Outside core the browser's and Node's globals are there.
    expect(await problems('src/ui/probe.ts', 'export const y = window.location.href;\n')).toEqual([]);
  });
});
