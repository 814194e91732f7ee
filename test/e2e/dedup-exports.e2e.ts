import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { parquetReadObjects } from 'hyparquet';
import type { Page } from 'playwright-core';
import { parseDelimited } from '../../src/core/csv';
import { WARCParser } from 'warcio';
import { appForSuite, type OpenApp, projectFile, SHOTS, openSample } from './harness';

mkdirSync(SHOTS, { recursive: true });

async function exported(page: Page, button: string): Promise<Buffer> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  return readFileSync(await (await download).path());
}

/** Clicks an export that asks for the dataset's file again, chooses the sample, and waits for the save. */
async function fromChosenFile(page: Page, button: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(projectFile('sample/sample.warc.gz'));
  return page.waitForEvent('download', { timeout: 60_000 });
}

/**
 * Issue "Formats in and out", item 3: what a corpus builder acts on, from the workbench: the clusters
 * as Parquet, one row per page (id, url, cluster, kept), and the remove list.
 */
describe('clusters as Parquet and the remove list', () => {
  let app: OpenApp;
  let page: Page;
  appForSuite((a) => ([app, page] = [a, a.page]));

  it('exports one row per clustered page with one kept copy a cluster, and the others to remove', async () => {
    await openSample(page, { signatures: true });
    const summary = page.getByTestId('cluster-summary');
    // "204 clusters · 415 of 472 pages · …"
    const [, clusters, inClusters] = /^([\d,]+) clusters? · ([\d,]+) of/.exec(
      (await summary.textContent()) ?? '',
    )!;
    const n = (s: string) => Number(s.replace(/,/g, ''));
    const buf = await exported(page, 'Export clusters (Parquet)');
    const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
    type Row = {
      id: bigint;
      url: string;
      cluster: string;
      kept: boolean;
      kept_reason: string;
      lost_share: number | null;
      loses_text: boolean;
    };
    const rows = (await parquetReadObjects({ file })) as Row[];
    assert.equal(rows.length, n(inClusters), 'one row per page in a cluster');
    const byCluster = new Map<string, Row[]>();
    for (const r of rows) byCluster.set(r.cluster, [...(byCluster.get(r.cluster) ?? []), r]);
    assert.equal(byCluster.size, n(clusters));
    for (const [c, members] of byCluster) {
      assert.match(c, /^[0-9a-f]{16}$/, "named by its kept copy's capture key");
      assert.equal(members.filter((m) => m.kept).length, 1, `cluster ${c} keeps one copy`);
      assert.match(members[0].kept_reason, /^kept: /);
    }
    const remove = parseDelimited((await exported(page, 'Export remove list (CSV)')).toString('utf8'));
    assert.deepEqual(remove[0], [
      'url',
      'id',
      'cluster',
      'kept_url',
      'kept_id',
      'kept_reason',
      'lost_share',
      'loses_text',
      'method',
      'canonical_url',
      'surt',
      'canonical_surt',
    ]);
    // Every member but the kept one, less those that would lose text (kept by the default policy, said).
    const flagged = rows.filter((r) => r.loses_text).length;
    assert.equal(remove.length - 1, n(inClusters) - n(clusters) - flagged, 'every member but the kept one');
    assert.ok(rows.every((r) => (r.kept ? r.lost_share === null : r.lost_share !== null)));
    const said = (await page.getByTestId('loses-text-count').textContent()) ?? '';
    assert.match(said, flagged === 0 ? /No removed copy loses text/ : new RegExp(`^\\s*${flagged} cop`));
    const kept = new Set(rows.filter((r) => r.kept).map((r) => String(r.id)));
    assert.ok(remove.slice(1).every((r) => kept.has(r[4]) && !kept.has(r[1])));
    // One name for a cluster in every export: the remove list's and the clusters CSV's are the Parquet's.
    const keptOf = new Map(rows.filter((r) => r.kept).map((r) => [r.cluster, r.url]));
    for (const r of remove.slice(1)) assert.equal(keptOf.get(r[2]), r[3], `cluster ${r[2]} keeps ${r[3]}`);
    const csv = parseDelimited((await exported(page, 'Export clusters (CSV)')).toString('utf8'));
    const col = (name: string) => csv[0].indexOf(name);
    assert.deepEqual(new Set(csv.slice(1).map((r) => r[col('cluster')])), new Set(byCluster.keys()));
    for (const r of csv.slice(1))
      if (r[col('kept')] === '1') assert.equal(keptOf.get(r[col('cluster')]), r[col('url')]);
    // The cluster detail names the cluster as the exports do, and says why its kept copy is kept.
    await page.locator('.cluster-list li').first().click();
    const shownId = (await page.getByTestId('cluster-id').textContent()) ?? '';
    assert.ok(byCluster.has(shownId), `the detail's cluster ${shownId} is an exported cluster`);
    assert.equal(await page.getByTestId('kept-badge').textContent(), byCluster.get(shownId)![0].kept_reason);
    // The policy changed (earliest capture first): kept copies and their reasons change.
    for (let k = 0; k < 4; k++) await page.getByRole('button', { name: 'move earliest capture up' }).click();
    const buf2 = await exported(page, 'Export clusters (Parquet)');
    const rows2 = (await parquetReadObjects({
      file: buf2.buffer.slice(buf2.byteOffset, buf2.byteOffset + buf2.byteLength) as ArrayBuffer,
    })) as Row[];
    const kept2 = new Set(rows2.filter((r) => r.kept).map((r) => String(r.id)));
    assert.ok(
      [...kept2].some((id) => !kept.has(id)),
      'another copy is kept in some cluster',
    );
    assert.ok(rows2.some((r) => r.kept_reason === 'kept: earliest capture'));
    await page.getByTestId('keep-policy').screenshot({ path: `${SHOTS}/keep-policy.png` });
    // The archive exports' buttons do not touch (issue "Every screen readable", the slips).
    const warcBox = (await page.getByRole('button', { name: 'Write deduplicated WARC…' }).boundingBox())!;
    const cdxjBox = (await page.getByRole('button', { name: 'Write CDXJ index…' }).boundingBox())!;
    assert.ok(
      cdxjBox.x >= warcBox.x + warcBox.width + 4 || cdxjBox.y >= warcBox.y + warcBox.height,
      `${JSON.stringify(warcBox)} ${JSON.stringify(cdxjBox)}`,
    );
    await page.screenshot({ path: `${SHOTS}/dedup-exports.png` });
    assert.deepEqual(app.errors, []);
  });

  /**
   * Item 2: the deduplicated WARC, written in the workbench from the sample's file chosen again, read
   * back by warcio: every record valid, every revisit refers (target URI and date) to a response in it
   * with the same payload digest, one record out for each record in.
   */
  it('writes the deduplicated WARC: warcio reads it, every revisit refers to a response with its digest', async () => {
    const download = await fromChosenFile(page, 'Write deduplicated WARC…');
    assert.equal(download.suggestedFilename(), 'sample-dedup.warc.gz');
    const out = readFileSync(await download.path());
    const stats = (await page.getByTestId('dedup-warc-stats').textContent()) ?? '';
    const revisitsSaid = Number(
      /duplicate URLs ([\d,]+) \(revisits\)/.exec(stats)?.[1].replace(/,/g, '') ?? NaN,
    );
    assert.ok(revisitsSaid > 0, stats);
    const count = async (bytes: Uint8Array) => {
      const types: string[] = [];
      const responses = new Map<string, string>();
      const refs: { ref: string; digest: string }[] = [];
      for await (const r of new WARCParser([bytes])) {
        await r.readFully(false);
        const h = r.warcHeaders.headers;
        types.push(r.warcType ?? '');
        if (r.warcType === 'response')
          responses.set(`${r.warcTargetURI} ${h.get('WARC-Date')}`, h.get('WARC-Payload-Digest') ?? '');
        if (
          r.warcType === 'revisit' &&
          h.get('WARC-Profile')?.endsWith('identical-payload-digest') &&
          h.get('WARC-Refers-To-Target-URI')
        )
          refs.push({
            ref: `${h.get('WARC-Refers-To-Target-URI')} ${h.get('WARC-Refers-To-Date')}`,
            digest: h.get('WARC-Payload-Digest') ?? '',
          });
      }
      return { types, responses, refs };
    };
    const before = await count(new Uint8Array(readFileSync(projectFile('sample/sample.warc.gz'))));
    const after = await count(new Uint8Array(out));
    assert.equal(after.types.length, before.types.length, 'one record out for each record in');
    assert.equal(
      after.types.filter((t) => t === 'response').length,
      before.types.filter((t) => t === 'response').length - revisitsSaid,
      "the duplicates' responses became revisits",
    );
    const written = after.refs.length - before.refs.length;
    assert.equal(written, revisitsSaid);
    // Every revisit of the file, the sample's own and those written, refers to a response with its digest.
    for (const r of after.refs)
      assert.equal(after.responses.get(r.ref), r.digest, `a response at ${r.ref} with digest ${r.digest}`);
    await page.screenshot({ path: `${SHOTS}/dedup-warc.png` });
    assert.deepEqual(app.errors, []);
  });

  it('writes the CDXJ index: every capture at its record, sorted, with the revisits said', async () => {
    const download = await fromChosenFile(page, 'Write CDXJ index…');
    assert.equal(download.suggestedFilename(), 'sample.cdxj');
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n');
    const bytes = readFileSync(projectFile('sample/sample.warc.gz'));
    assert.equal(lines.length, 475, 'one line per capture');
    assert.deepEqual([...lines].sort(), lines, 'sorted');
    let revisits = 0;
    for (const line of lines) {
      const f = JSON.parse(line.slice(line.indexOf(' {') + 1)) as Record<string, string>;
      const record = gunzipSync(
        bytes.subarray(Number(f.offset), Number(f.offset) + Number(f.length)),
      ).toString('latin1');
      // wget writes its target URIs in angle brackets (the sample's WARC/1.0 records do).
      assert.ok(
        record.includes(`\r\nWARC-Target-URI: ${f.url}\r\n`) ||
          record.includes(`\r\nWARC-Target-URI: <${f.url}>\r\n`),
        `${f.url} at ${f.offset}+${f.length}`,
      );
      if (f.dedup === 'revisit') revisits++;
    }
    const stats = (await page.getByTestId('dedup-warc-stats').textContent()) ?? '';
    assert.equal(
      String(revisits),
      /duplicate URLs ([\d,]+)/.exec(stats)?.[1],
      'the revisits of the deduplicated WARC',
    );
    assert.deepEqual(app.errors, []);
  });
});
