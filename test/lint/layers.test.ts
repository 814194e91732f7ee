/**
 * The layers are enforced by eslint.config.js: an import that runs up the layers, a package that is not
 * the layer's, or a browser- or Node-only global in src/core fails the lint; the same code where the
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
  ];
  for (const [file, code] of up)
    it(`refuses ${code.split('\n')[0]} in ${file}`, async () => {
      const got = await problems(file, code);
      expect(
        got.some((p) => p.startsWith('no-restricted-imports')),
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
