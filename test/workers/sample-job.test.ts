import 'fake-indexeddb/auto';
import { gzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { runDustBuster } from '../../src/core/dust';
import { layerRecords } from '../../src/core/dust/url-layer';
import { seededRandom } from '../../src/core/random';
import { loadPages } from '../../src/db/page-rows';
import { forEachUrlLayerChunk } from '../../src/db/url-layer';
import { db } from '../../src/db/schema';
import { runDust } from '../../src/workers/dust-job';
import { runIngest } from '../../src/workers/ingest-job';
import { httpResponse, warcRecord } from '../core/helpers';

/**
 * A crawl of `sites` sites in two WARC.gz files (records interleaved at random, seeded) and its CDXJ:
 * each site's pages also under a `?sid=` alias (DUST), every page's text its own.
 */
function crawl(seed: number, sites = 12) {
  const rnd = seededRandom(seed);
  const records: { url: string; body: Uint8Array; digest: string }[] = [];
  for (let s = 0; s < sites; s++) {
    const n = 3 + Math.floor(rnd() * 12);
    for (let p = 0; p < n; p++) {
      const words = Array.from({ length: 60 }, (_, k) => `w${s}x${p}y${(k * 7 + p) % 50}`).join(' ');
      const html = `<title>site ${s} page ${p}</title><p>${words}</p>`;
      for (const url of [`http://s${s}.test/d/p${p}.html`, `http://s${s}.test/d/p${p}.html?sid=${p + 100}`])
        records.push({
          url,
          digest: `S${s}P${p}`,
          body: warcRecord(
            [
              ['WARC-Type', 'response'],
              ['WARC-Target-URI', url],
              ['WARC-Date', '2024-01-15T10:00:00Z'],
              [
                'WARC-Record-ID',
                `<urn:uuid:00000000-0000-0000-0000-${String(records.length).padStart(12, '0')}>`,
              ],
              ['Content-Type', 'application/http; msgtype=response'],
            ],
            httpResponse(200, [['Content-Type', 'text/html']], html),
          ),
        });
    }
  }
  for (let i = records.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [records[i], records[j]] = [records[j], records[i]];
  }
  const parts: Uint8Array[][] = [[], []];
  const offsets = [0, 0];
  const lines: string[] = [];
  records.forEach((r, i) => {
    const f = i % 2;
    const member = gzipSync(r.body);
    lines.push(
      `key 20240115100000 ${JSON.stringify({ url: r.url, mime: 'text/html', status: '200', digest: r.digest, length: String(member.length), offset: String(offsets[f]), filename: `c${f}.warc.gz` })}`,
    );
    parts[f].push(member);
    offsets[f] += member.length;
  });
  return {
    files: [
      new File(parts[0] as BlobPart[], 'c0.warc.gz'),
      new File(parts[1] as BlobPart[], 'c1.warc.gz'),
      new File([lines.join('\n')], 'crawl.cdxj'),
    ],
    lines,
    records,
  };
}

describe('a sample read by its index', () => {
  afterEach(async () => {
    await db().delete();
    await db().open();
  });

  it('reads only the chosen units, offsets as in the files, the URL layer stored whole', async () => {
    const seed = Number(process.env.SAMPLE_JOB_SEED ?? 3);
    const c = crawl(seed);
    const progress: { file?: string; bytesRead: number; totalBytes: number }[] = [];
    const r = await runIngest(
      { files: c.files, name: 'sample', sample: { budget: 40, seed } },
      (p) => progress.push(p),
      () => false,
    );
    expect(r.kind, `seed ${seed}`).toBe('done');
    // The index's read is the job's progress first: its bytes up to its size.
    const index = c.files[2];
    const onIndex = progress.filter((p) => p.file === 'crawl.cdxj');
    expect(onIndex.length).toBeGreaterThan(0);
    expect(onIndex[onIndex.length - 1]).toMatchObject({ bytesRead: index.size, totalBytes: index.size });
    const id = (r as { datasetId: number }).datasetId;
    const ds = (await db().datasets.get(id))!;
    expect(ds.sample).toBeDefined();
    expect(ds.format).toBe('warc');
    const info = ds.sample!;
    const pages = await loadPages(db(), id);
    expect(pages.length).toBe(info.chosen.reduce((a, u) => a + info.unitPages[u], 0));
    expect(pages.length).toBeLessThan(c.records.length);
    // Each page at its offset in its own file, as the index says.
    const where = new Map(
      c.lines
        .map((l) => JSON.parse(l.slice(l.indexOf('{'))) as Record<string, string>)
        .map((o) => [o.url, o]),
    );
    for (const p of pages) {
      const o = where.get(p.url)!;
      expect(p.offset, p.url).toBe(Number(o.offset));
      expect(info.chosen).toContain(p.sampleUnit);
    }
    let layer = 0;
    await forEachUrlLayerChunk(db(), id, (lines) => (layer += lines.split('\n').length));
    expect(layer).toBe(c.records.length);
  });

  it('mines DUST rules on the whole URL layer: the rules of the whole URL list, validated on the sample', async () => {
    const seed = Number(process.env.SAMPLE_JOB_SEED ?? 4);
    const c = crawl(seed, 20);
    const r = await runIngest(
      { files: c.files, name: 'sample', sample: { budget: 60, seed } },
      () => {},
      () => false,
    );
    const id = (r as { datasetId: number }).datasetId;
    const out = await runDust(
      { datasetId: id, params: {} },
      () => {},
      () => false,
    );
    expect(out.kind).toBe('done');
    const run = (await db().dustRuns.where('datasetId').equals(id).first())!;
    let whole = '';
    await forEachUrlLayerChunk(db(), id, (lines) => (whole += lines + '\n'));
    const reference = runDustBuster(layerRecords(whole));
    const key = (x: { kind: string; from?: string; to?: string; param?: string }) =>
      JSON.stringify([x.kind, x.from, x.to, x.param]);
    expect(run.rules.map(key).sort(), `seed ${seed}`).toEqual(reference.rules.map(key).sort());
    expect(run.rules.length).toBeGreaterThan(0);
    // The sid alias is validated on the sampled pages, which have documents.
    expect(
      run.rules.some((x) => x.status === 'valid'),
      `seed ${seed}`,
    ).toBe(true);
  });

  it('without an index, builds one by an inflate pass over the WARC.gz files and reads the same sample', async () => {
    const seed = Number(process.env.SAMPLE_JOB_SEED ?? 5);
    const c = crawl(seed);
    const withIndex = await runIngest(
      { files: c.files, sample: { budget: 40, seed } },
      () => {},
      () => false,
    );
    const built = await runIngest(
      { files: c.files.slice(0, 2), sample: { budget: 40, seed } },
      () => {},
      () => false,
    );
    expect(built.kind).toBe('done');
    const a = await loadPages(db(), (withIndex as { datasetId: number }).datasetId);
    const b = await loadPages(db(), (built as { datasetId: number }).datasetId);
    const key = (p: { url: string; offset: number }) => `${p.url} ${p.offset}`;
    expect(b.map(key).sort(), `seed ${seed}`).toEqual(a.map(key).sort());
    const info = (await db().datasets.get((built as { datasetId: number }).datasetId))!.sample!;
    expect(info.index).toMatch(/^an index built by an inflate pass over the WARCs/);
  });

  it('a WACZ without an index: one built over its STORED WARCs, the same sample as with the CDXJ', async () => {
    const seed = Number(process.env.SAMPLE_JOB_SEED ?? 6);
    const c = crawl(seed);
    const bytes = async (f: File) => new Uint8Array(await f.arrayBuffer());
    const wacz = new File(
      [
        zipSync({
          'archive/c0.warc.gz': [await bytes(c.files[0]), { level: 0 }],
          'archive/c1.warc.gz': [await bytes(c.files[1]), { level: 0 }],
          'datapackage.json': [new TextEncoder().encode('{"profile": "data-package"}'), { level: 6 }],
        }),
      ] as BlobPart[],
      'crawl.wacz',
    );
    const withIndex = await runIngest(
      { files: c.files, sample: { budget: 40, seed } },
      () => {},
      () => false,
    );
    const built = await runIngest(
      { files: [wacz], sample: { budget: 40, seed } },
      () => {},
      () => false,
    );
    expect(built.kind, JSON.stringify(built)).toBe('done');
    const a = await loadPages(db(), (withIndex as { datasetId: number }).datasetId);
    const b = await loadPages(db(), (built as { datasetId: number }).datasetId);
    const key = (p: { url: string; offset: number }) => `${p.url} ${p.offset}`;
    expect(b.map(key).sort(), `seed ${seed}`).toEqual(a.map(key).sort());
  });

  it('refuses a file that is neither an index nor a WARC, and leaves no dataset', async () => {
    const r = await runIngest(
      { files: [new File(['hello, not a crawl'], 'notes.txt')], sample: { budget: 10, seed: 1 } },
      () => {},
      () => false,
    );
    expect(r.kind).toBe('rejected');
    expect((r as { error: { reason: string } }).error.reason).toMatch(/none can be built/);
    expect(await db().datasets.count()).toBe(0);
  });
});
