import { md5 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { BUDGET } from '../codecs/budget';
import { findHeaderEnd, headerValue, latin1 } from './bytes';
import { dechunk } from './http';
import type { Hash, Natives } from './natives';
import { base32, sha1 as ownSha1 } from '../text/sha1';
import type { DigestReport } from '../types';
import { emptyReport, MAX_LISTED } from './digest-report';

/**
 * WARC-Payload-Digest and WARC-Block-Digest checked against the record's bytes, where a record states
 * them (ISO 28500 §5.8, §5.9), as `warcio check` and jwarc's `validate` do. A mismatch is counted and
 * listed, never a rejection: the page is read as usual. A record that states no digest costs two header
 * look-ups; one that does, one hash of its block and one of its payload per algorithm stated.
 *
 * What is hashed, as warcio (digestverifyingreader.py, recordloader.py) defines it:
 * - the block digest: the whole block, every record type;
 * - the payload digest: of response, request and revisit records with an http(s) target, the bytes after
 *   the HTTP header block as stored (chunked framing and content coding left in); of other records (resource,
 *   metadata, dns: responses) the whole block. A revisit's payload digest names its original's payload and
 *   is not checked (warcio checks neither of a revisit's digests; its block digest is checked here, as jwarc
 *   does: the block is the revisit's own). A segmented record's payload digest is not checked (warcio).
 * - A payload digest that does not match the stored bytes of a `Transfer-Encoding: chunked` body but
 *   matches the de-chunked body is accepted: jwarc hashes the de-chunked body (its ChunkedBody), and so do
 *   wget and the WARC spec's clarified reading (iipc/warc-specifications#22), while warcio flags those
 *   (webrecorder/warcio#74, #75). Neither hashes the content-decoded body: nor is it here.
 * - A value is read as hex (2 characters a byte), base32 (RFC 4648, either case, padded or not) or
 *   base64 (standard or URL-safe), told apart by its length, as warcio's _to_b32 and jwarc's WarcDigest
 *   do; `sha1`, `sha256`, `sha512` and `md5` are known (also spelt `SHA-1`, `sha-256`…). Any other
 *   algorithm, or a value without `algorithm:`, is counted as not checked, never an error (warcio calls
 *   an unknown algorithm a problem; jwarc only logs it). A known algorithm whose value is none of those
 *   encodings cannot be the digest of anything: a mismatch.
 */

export type DigestAlgorithm = 'sha1' | 'sha256' | 'sha512' | 'md5';

/** Digest lengths in bytes. */
const LENGTH: Record<DigestAlgorithm, number> = { sha1: 20, sha256: 32, sha512: 64, md5: 16 };

/** The record types whose block is an HTTP message for warcio (its HTTP_RECORDS). */
const HTTP_RECORDS = new Set(['response', 'request', 'revisit']);

/** The hashes by algorithm: the platform's where it gives one (natives.ts), else pure JavaScript. */
export function digestHashes(natives: Natives = {}): Record<DigestAlgorithm, Hash> {
  return {
    sha1: natives.sha1 ?? ownSha1,
    sha256: natives.hashes?.sha256 ?? sha256,
    sha512: natives.hashes?.sha512 ?? sha512,
    md5: natives.hashes?.md5 ?? md5,
  };
}

type Encoding = 'hex' | 'base32' | 'base64';

/** A stated digest as read: a known algorithm and its bytes (null: no readable value), or why not checked. */
type Stated =
  { algo: DigestAlgorithm; bytes: Uint8Array | null; encoding: Encoding } | { notChecked: string };

/** `sha1:…` → algorithm and bytes. */
export function readStatedDigest(value: string): Stated {
  const colon = value.indexOf(':');
  if (colon <= 0) return { notChecked: 'no algorithm named' };
  const name = value.slice(0, colon).trim().toLowerCase().replace(/[-_]/g, '');
  if (!(name in LENGTH)) return { notChecked: `algorithm ${value.slice(0, Math.min(colon, 20)).trim()}` };
  const algo = name as DigestAlgorithm;
  const n = LENGTH[algo];
  const v = value
    .slice(colon + 1)
    .trim()
    .replace(/=+$/, '');
  if (v.length === 2 * n && /^[0-9a-f]+$/i.test(v)) return { algo, bytes: decodeHex(v), encoding: 'hex' };
  if (v.length === Math.ceil((n * 8) / 5) && /^[a-z2-7]+$/i.test(v))
    return { algo, bytes: decodeBits(v.toUpperCase(), B32, 5, n), encoding: 'base32' };
  if (v.length === Math.ceil((n * 4) / 3) && /^[A-Za-z0-9+/_-]+$/.test(v))
    return {
      algo,
      bytes: decodeBits(v.replace(/-/g, '+').replace(/_/g, '/'), B64, 6, n),
      encoding: 'base64',
    };
  return { algo, bytes: null, encoding: 'base32' };
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeHex(v: string): Uint8Array {
  const out = new Uint8Array(v.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(v.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Base32 or base64 (`bits` a character) into `n` bytes; the alphabet was checked by the caller. */
function decodeBits(v: string, alphabet: string, bits: number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  let acc = 0;
  let have = 0;
  let k = 0;
  for (let i = 0; i < v.length && k < n; i++) {
    acc = ((acc << bits) | alphabet.indexOf(v[i])) & 0xffff;
    have += bits;
    if (have >= 8) {
      have -= 8;
      out[k++] = (acc >>> have) & 0xff;
    }
  }
  return out;
}

function encodeAs(bytes: Uint8Array, encoding: Encoding): string {
  if (encoding === 'hex') return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return base32(bytes);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What a read of one file reports about one record (createWarcReader hands every record here). */
export interface CheckedRecord {
  type: string;
  headers: [string, string][];
  /** null when the block was over the record budget and not kept. */
  block: Uint8Array | null;
  offset: number;
  /** Its target URI ('' for none). */
  url: string;
}

/** The digest checks of one read (a file, or one part of it): counts, the first mismatches. */
export class DigestCheck {
  private readonly hashes: Record<DigestAlgorithm, Hash>;
  private readonly report: DigestReport = emptyReport();

  constructor(
    private readonly fileName: string,
    natives?: Natives,
  ) {
    this.hashes = digestHashes(natives);
  }

  record(r: CheckedRecord): void {
    const payloadValue = headerValue(r.headers, 'WARC-Payload-Digest');
    const blockValue = headerValue(r.headers, 'WARC-Block-Digest');
    if (payloadValue === undefined && blockValue === undefined) return;
    const checkPayload =
      payloadValue !== undefined &&
      r.type !== 'revisit' &&
      headerValue(r.headers, 'WARC-Segment-Number') === undefined;
    if (r.block === null) {
      const n = (blockValue !== undefined ? 1 : 0) + (checkPayload ? 1 : 0);
      for (let i = 0; i < n; i++) this.notChecked(`record over ${BUDGET.recordBytes >> 20} MiB (not read)`);
      return;
    }
    // One hash per algorithm and range: a resource record's payload is its block.
    let blockHash: { algo: DigestAlgorithm; bytes: Uint8Array } | null = null;
    if (blockValue !== undefined) {
      const s = readStatedDigest(blockValue);
      if ('notChecked' in s) this.notChecked(s.notChecked);
      else {
        blockHash = { algo: s.algo, bytes: this.hashes[s.algo](r.block) };
        this.compare('block', s, blockValue, blockHash.bytes, r);
      }
    }
    if (!checkPayload) {
      if (payloadValue !== undefined && r.type !== 'revisit') this.notChecked('segmented record');
      return;
    }
    const s = readStatedDigest(payloadValue);
    if ('notChecked' in s) {
      this.notChecked(s.notChecked);
      return;
    }
    const start = payloadStart(r);
    if (start < 0) {
      this.notChecked('HTTP header block without end');
      return;
    }
    const payload = r.block.subarray(start);
    const hash = start === 0 && blockHash?.algo === s.algo ? blockHash.bytes : this.hashes[s.algo](payload);
    if (s.bytes && !equalBytes(hash, s.bytes) && start > 0 && isChunked(r.block.subarray(0, start))) {
      // wget, jwarc and the spec's reading hash the de-chunked body (see the top of this file).
      const body = dechunk(payload);
      if (body && equalBytes(this.hashes[s.algo](body), s.bytes)) {
        this.report.checked++;
        this.report.dechunkedMatches++;
        return;
      }
    }
    this.compare('payload', s, payloadValue, hash, r);
  }

  private compare(
    field: 'payload' | 'block',
    s: { algo: DigestAlgorithm; bytes: Uint8Array | null; encoding: Encoding },
    stated: string,
    computed: Uint8Array,
    r: CheckedRecord,
  ): void {
    this.report.checked++;
    if (s.bytes && equalBytes(computed, s.bytes)) return;
    if (field === 'payload') this.report.payloadMismatches++;
    else this.report.blockMismatches++;
    if (this.report.mismatches.length < MAX_LISTED)
      this.report.mismatches.push({
        fileName: this.fileName,
        offset: r.offset,
        url: r.url,
        recordType: r.type,
        field,
        stated: stated.slice(0, 160),
        computed: `${s.algo}:${encodeAs(computed, s.encoding)}`,
      });
  }

  private notChecked(why: string): void {
    const n = this.report.notChecked;
    if (n[why] !== undefined || Object.keys(n).length < 20) n[why] = (n[why] ?? 0) + 1;
  }

  /** The report, or undefined when no record stated a digest. */
  result(): DigestReport | undefined {
    const r = this.report;
    return r.checked > 0 || Object.keys(r.notChecked).length > 0 ? r : undefined;
  }
}

/** Where warcio's payload starts in a block: after the HTTP header block for HTTP records, else 0; -1 none. */
function payloadStart(r: CheckedRecord): number {
  const block = r.block!;
  if (!HTTP_RECORDS.has(r.type) || !/^https?:/.test(r.url) || block.length === 0) return 0;
  return findHeaderEnd(block, 0, Math.min(block.length, BUDGET.headerBytes)).end;
}

function isChunked(head: Uint8Array): boolean {
  return /^transfer-encoding:[^\n]*chunked/im.test(latin1.decode(head));
}
