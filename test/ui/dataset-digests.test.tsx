// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { digestWarnings } from '../../src/core/ingest/digest-report';
import type { DigestReport } from '../../src/core/types';
import type { Dataset } from '../../src/db/schema';
import { DatasetHeader } from '../../src/ui/DatasetHeader';

afterEach(cleanup);

function dataset(digests: DigestReport | undefined): Dataset {
  const warnings = digestWarnings(digests);
  return {
    id: 1,
    name: 'crawl.warc.gz',
    fileName: 'crawl.warc.gz',
    bytes: 1000,
    format: 'warc',
    compressed: true,
    created: '2024-01-01T00:00:00Z',
    status: 'ready',
    heartbeat: 0,
    pages: 3,
    records: 6,
    hosts: 1,
    recordsByType: { response: 3, request: 3 },
    skipped: {},
    bytesDecoded: 3000,
    elapsedMs: 10,
    storeMs: 1,
    error: null,
    warnings,
    warningCount: warnings.length,
    ...(digests ? { digests } : {}),
  };
}

describe('the dataset header shows the digest checks', () => {
  it('lists each mismatch with its offset and URL (bidirectional controls shown), and the warning with its count', () => {
    const report: DigestReport = {
      checked: 12,
      payloadMismatches: 2,
      blockMismatches: 0,
      dechunkedMatches: 1,
      notChecked: { 'algorithm blake3': 1 },
      mismatches: [
        {
          fileName: 'crawl.warc.gz',
          offset: 1234,
          url: 'http://d.test/\u202Eevil',
          recordType: 'response',
          field: 'payload',
          stated: 'sha1:AAAA',
          computed: 'sha1:BBBB',
        },
        {
          fileName: 'crawl.warc.gz',
          offset: 5678,
          url: 'http://d.test/2',
          recordType: 'response',
          field: 'payload',
          stated: 'sha1:CCCC',
          computed: 'sha1:DDDD',
        },
      ],
    };
    render(<DatasetHeader dataset={dataset(report)} />);
    const box = screen.getByTestId('digests');
    expect(box.textContent).toContain(
      'Digests: 12 checked · 2 do not match (payload 2, block 0) · 1 payload digests match the de-chunked body (as wget writes them) · 1 not checked (algorithm blake3 1)',
    );
    const items = within(box).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      'WARC-Payload-Digest at byte 1,234 · http://d.test/⟨U+202E⟩evil · sha1:AAAA stated, sha1:BBBB computed',
      'WARC-Payload-Digest at byte 5,678 · http://d.test/2 · sha1:CCCC stated, sha1:DDDD computed',
    ]);
    expect(screen.getByText('1 problem read past')).toBeTruthy();
    expect(document.body.textContent).toContain(
      'crawl.warc.gz at byte 1,234: 2 records whose WARC-Payload-Digest does not match their payload (the first http://d.test/⟨U+202E⟩evil; then at bytes 5,678); read as usual',
    );
    expect(document.body.innerHTML).not.toContain('\u202E');
  });

  it('says all match in one line, and nothing when no record states a digest', () => {
    const ok: DigestReport = {
      checked: 4,
      payloadMismatches: 0,
      blockMismatches: 0,
      dechunkedMatches: 0,
      notChecked: {},
      mismatches: [],
    };
    render(<DatasetHeader dataset={dataset(ok)} />);
    expect(screen.getByTestId('digests').textContent).toBe('Digests: 4 checked · all match');
    cleanup();
    render(<DatasetHeader dataset={dataset(undefined)} />);
    expect(screen.queryByTestId('digests')).toBeNull();
  });
});
