// Generates sample/sample.warc.gz and sample/truth.json: a small,
// deterministic crawl with mirrors, DUST, reposts, Chinese pages in UTF-8 and
// GBK, a hostile page and assorted non-HTML records. Page text is real: sections
// of Debian documentation packages (installed when missing; see lib/sample-text.ts).
// Run: npm run sample

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom, shuffle } from './lib/prng.ts';
import { type CrawlItem, Clock, type NotDupPair, type Relation } from './lib/sample-crawl.ts';
import { buildDocs } from './lib/sample-docs.ts';
import { outlinks } from './lib/sample-html.ts';
import { sampleReadme } from './lib/sample-readme.ts';
import { buildTruth, canonicalize } from './lib/sample-truth.ts';
import { NEWS, REVISIT_STORY, buildNews } from './lib/sample-news.ts';
import { buildZh } from './lib/sample-zh.ts';
import {
  DEBIAN_REFERENCE_EN,
  DEBIAN_REFERENCE_ZH,
  DEVELOPERS_REFERENCE,
  Pool,
  ensurePackages,
  packageVersion,
  readSections,
} from './lib/sample-text.ts';
import {
  type HeaderList,
  chunked,
  gzipMember,
  httpDate,
  httpRequest,
  httpResponse,
  isoDate,
  recordIdFactory,
  sha1Base32,
  sha1Hex,
  warcFields,
  warcRecord,
} from './lib/warc-writer.ts';

const SEED = 20240115;
const START = '2024-01-15T10:00:00Z';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = join(ROOT, 'sample');
const FILENAME = 'sample.warc.gz';
const IPS: Record<string, string> = {
  'www.example-news.test': '192.0.2.10',
  'docs.example.test': '192.0.2.20',
  'mirror.example-docs.test': '198.51.100.7',
  'www.example-zh.test': '203.0.113.30',
};

function main(): void {
  const sources = [DEBIAN_REFERENCE_EN, DEVELOPERS_REFERENCE, DEBIAN_REFERENCE_ZH];
  ensurePackages(sources.map((s) => s.pkg));
  // One set of paragraphs for all sources: no paragraph is used twice unless a page copies another.
  const seen = new Set<string>();
  const en = readSections(DEBIAN_REFERENCE_EN, { minParagraph: 8, minSize: 70, maxSize: 400 }, seen);
  const dev = readSections(DEVELOPERS_REFERENCE, { minParagraph: 8, minSize: 100, maxSize: 400 }, seen);
  const zhText = readSections(DEBIAN_REFERENCE_ZH, { minParagraph: 15, minSize: 120, maxSize: 700 }, seen);

  const rng = seededRandom(SEED);
  const clock = new Clock(START);
  const nextId = recordIdFactory(`dedup-workbench-sample-${SEED}`);
  // News stories mix subjects (shuffled); the docs keep their document order, as a manual does.
  const news = buildNews(rng, clock, new Pool(shuffle(seededRandom(SEED + 1), en)));
  const docs = buildDocs(rng, clock, new Pool(dev));
  const zh = buildZh(rng, clock, new Pool(shuffle(seededRandom(SEED + 2), zhText)));
  const items: CrawlItem[] = [...news.items, ...docs.items, ...zh.items];
  const relations: Relation[] = [...news.relations, ...docs.relations, ...zh.relations];
  const notDup: NotDupPair[] = [...news.notDup, ...docs.notDup, ...zh.notDup];

  const members: Buffer[] = [];
  const counts = { warcinfo: 0, request: 0, response: 0, revisit: 0, metadata: 0, resource: 0 };
  let offset = 0;
  const emit = (type: keyof typeof counts, rec: Buffer): { offset: number; length: number } => {
    const gz = gzipMember(rec);
    members.push(gz);
    counts[type]++;
    const at = { offset, length: gz.length };
    offset += gz.length;
    return at;
  };

  const warcinfoId = nextId();
  emit(
    'warcinfo',
    warcRecord({
      type: 'warcinfo',
      date: START,
      recordId: warcinfoId,
      headers: [['WARC-Filename', FILENAME]],
      block: warcFields([
        ['software', 'dedup-workbench scripts/make-sample.ts'],
        ['format', 'WARC File Format 1.0'],
        ['conformsTo', 'http://bibnum.bnf.fr/WARC/WARC_ISO_28500_version1_latestdraft.pdf'],
        ['isPartOf', 'dedup-workbench-sample'],
        [
          'description',
          'Sample crawl of made-up sites with real text (Debian documentation, GPL-2+): mirrors, DUST, reposts, GBK pages. See truth.json.',
        ],
        ['robots', 'obey'],
        ['http-header-user-agent', 'DedupWorkbenchSampleBot/1.0 (+http://example.test/bot)'],
      ]),
    }),
  );
  emit(
    'resource',
    warcRecord({
      type: 'resource',
      targetUri: 'dns:www.example-news.test',
      date: isoDate(START, 1),
      recordId: nextId(),
      headers: [
        ['WARC-Warcinfo-ID', warcinfoId],
        ['Content-Type', 'text/dns'],
      ],
      block: Buffer.from('20240115100001\nwww.example-news.test.\t300\tIN\tA\t192.0.2.10\n'),
    }),
  );

  const written = new Map<string, { id: string; digest: string; date: string; bodyLength: number }>();
  const pages: Array<Record<string, unknown>> = [];
  for (const item of items) {
    const host = new URL(item.url).host;
    const uri = item.angle ? `<${item.url}>` : item.url;
    const headers: HeaderList = [
      ['Date', httpDate(item.date)],
      ['Server', item.server],
      ['Content-Type', item.contentType],
    ];
    let stored = item.body;
    if (item.gzip) {
      stored = gzipMember(stored);
      headers.push(['Content-Encoding', 'gzip'], ['Vary', 'Accept-Encoding']);
    }
    if (item.chunked) {
      stored = chunked(stored, 1500);
      headers.push(['Transfer-Encoding', 'chunked']);
    }
    headers.push(...(item.extraHeaders ?? []), ['Connection', 'close']);
    const reqId = nextId();
    const respId = nextId();
    emit(
      'request',
      warcRecord({
        type: 'request',
        targetUri: uri,
        date: item.date,
        recordId: reqId,
        headers: [
          ['WARC-Concurrent-To', respId],
          ['WARC-Warcinfo-ID', warcinfoId],
        ],
        block: httpRequest(item.url),
      }),
    );
    const at = emit(
      'response',
      warcRecord({
        type: 'response',
        targetUri: uri,
        date: item.date,
        recordId: respId,
        headers: [
          ['WARC-IP-Address', IPS[host] ?? '192.0.2.1'],
          ['WARC-Warcinfo-ID', warcinfoId],
        ],
        block: httpResponse(item.status, headers, stored),
      }),
    );
    const digest = sha1Base32(stored);
    written.set(item.url, { id: respId, digest, date: item.date, bodyLength: stored.length });
    if (item.url === NEWS + '/' && item.model) {
      emit(
        'metadata',
        warcRecord({
          type: 'metadata',
          targetUri: item.url,
          date: item.date,
          recordId: nextId(),
          headers: [
            ['WARC-Concurrent-To', respId],
            ['WARC-Warcinfo-ID', warcinfoId],
          ],
          block: warcFields([
            ['fetchTimeMs', '87'],
            ['charsetForLinkExtraction', 'utf-8'],
            ...outlinks(item.model, item.url).map((l): [string, string] => ['outlink', `${l} L a/@href`]),
          ]),
        }),
      );
    }
    const { canonical, rules } = canonicalize(item.url);
    pages.push({
      url: item.url,
      status: item.status,
      mime: item.contentType.split(';')[0].trim(),
      charset: item.charset ?? null,
      charset_source: item.charsetSource ?? null,
      kind: item.kind,
      title: item.title ?? null,
      group: null,
      canonical,
      dust_rules: rules,
      body_sha1: sha1Hex(item.body),
      payload_digest: digest,
      record_id: respId,
      warc_offset: at.offset,
      warc_length: at.length,
      ...(item.angle ? { target_uri_form: 'angle-brackets' } : {}),
      ...(item.gzip ? { content_encoding: 'gzip' } : {}),
      ...(item.chunked ? { transfer_encoding: 'chunked' } : {}),
      ...(item.model ? { outlinks: outlinks(item.model, item.url) } : {}),
    });
  }

  // A later re-crawl of one story whose payload did not change.
  const revisitUrl = `${NEWS}/story_${REVISIT_STORY}`;
  const orig = written.get(revisitUrl);
  if (!orig) throw new Error('revisit target missing');
  const revisitDate = clock.next(60);
  const revisitId = nextId();
  const revReqId = nextId();
  emit(
    'request',
    warcRecord({
      type: 'request',
      targetUri: revisitUrl,
      date: revisitDate,
      recordId: revReqId,
      headers: [['WARC-Concurrent-To', revisitId]],
      block: httpRequest(revisitUrl),
    }),
  );
  emit(
    'revisit',
    warcRecord({
      type: 'revisit',
      targetUri: revisitUrl,
      date: revisitDate,
      recordId: revisitId,
      headers: [
        ['WARC-IP-Address', IPS['www.example-news.test']],
        ['WARC-Profile', 'http://netpreserve.org/warc/1.0/revisit/identical-payload-digest'],
        ['WARC-Refers-To', orig.id],
        ['WARC-Refers-To-Target-URI', revisitUrl],
        ['WARC-Refers-To-Date', orig.date],
        ['WARC-Payload-Digest', orig.digest],
      ],
      block: httpResponse(
        200,
        [
          ['Date', httpDate(revisitDate)],
          ['Server', 'Apache/2.4.58 (Unix)'],
          ['Content-Type', 'text/html; charset=utf-8'],
          ['Content-Length', String(orig.bodyLength)],
          ['Connection', 'close'],
        ],
        Buffer.alloc(0),
      ),
    }),
  );

  const truth = buildTruth({
    seed: SEED,
    sources: sources.map((s) => ({ package: s.pkg, version: packageVersion(s.pkg), license: 'GPL-2+' })),
    file: FILENAME,
    items,
    relations,
    notDup,
    pages,
    records: counts,
    revisit: {
      url: revisitUrl,
      id: revisitId,
      date: revisitDate,
      refersTo: orig.id,
      refersToDate: orig.date,
      digest: orig.digest,
    },
  });
  mkdirSync(OUT_DIR, { recursive: true });
  const warc = Buffer.concat(members);
  writeFileSync(join(OUT_DIR, FILENAME), warc);
  writeFileSync(join(OUT_DIR, 'truth.json'), JSON.stringify(truth, null, 2) + '\n');
  writeFileSync(join(OUT_DIR, 'README.md'), sampleReadme(truth, warc.length, docs.notes ?? {}));
  console.log(`${FILENAME}: ${warc.length} bytes, records ${JSON.stringify(counts)}`);
  console.log(
    `truth.json: ${truth.duplicate_groups.length} duplicate groups, counts ${JSON.stringify(truth.counts)}`,
  );
}

main();
