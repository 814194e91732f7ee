import { describe, expect, it } from 'vitest';
import { Origins, type Original } from '../../../src/core/ingest/origins';

const orig = (seq: number, extra: Partial<Original> = {}): Original => ({
  seq,
  title: `title ${seq}`,
  fingerprint: (seq * 2654435761).toString(16).padStart(16, '0').slice(-16),
  textLength: seq * 3,
  mime: seq % 3 === 0 ? 'text/html' : seq % 3 === 1 ? 'application/pdf' : '',
  ...extra,
});

describe('Origins', () => {
  it('finds every one of many originals by record id and by URL + digest, through growth', () => {
    const o = new Origins();
    const n = 50_000;
    for (let i = 0; i < n; i++)
      o.add(orig(i * 7 + 2 ** 33), `<urn:uuid:${i}>`, `http://h/${i}`, `sha1:${i.toString(36)}`);
    for (let i = 0; i < n; i += 37) {
      expect(o.find(`<urn:uuid:${i}>`, '', '')).toEqual(orig(i * 7 + 2 ** 33));
      expect(o.find('', `http://h/${i}`, `sha1:${i.toString(36)}`)).toEqual(orig(i * 7 + 2 ** 33));
    }
    expect(o.find('<urn:uuid:nope>', 'http://h/1', 'sha1:zz')).toBeNull();
    expect(o.find('', 'http://h/2', `sha1:${(1).toString(36)}`)).toBeNull();
  });

  it('falls back from an unknown record id to URL + digest', () => {
    const o = new Origins();
    o.add(orig(5), '<urn:uuid:a>', 'http://x/', 'sha1:A');
    expect(o.find('<urn:uuid:other>', 'http://x/', 'sha1:A')?.seq).toBe(5);
  });

  it('keeps the later page of a repeated key, as a Map did', () => {
    const o = new Origins();
    o.add(orig(1), '<urn:uuid:a>', 'http://x/', 'sha1:A');
    o.add(orig(2), '<urn:uuid:b>', 'http://x/', 'sha1:A');
    expect(o.find('', 'http://x/', 'sha1:A')?.seq).toBe(2);
    expect(o.find('<urn:uuid:a>', '', '')?.seq).toBe(1);
  });

  it('gives back fingerprints, titles and MIME types as they were, odd ones included', () => {
    const o = new Origins();
    const odd = orig(9, { fingerprint: '', title: '', mime: 'text/plain; charset=x' });
    const upper = orig(10, { fingerprint: 'ABCDEF0123456789' });
    const high = orig(11, { fingerprint: 'ffffffff00000000' });
    o.add(odd, '<a>', 'u', '');
    o.add(upper, '<b>', 'u', '');
    o.add(high, '<c>', 'u', '');
    expect(o.find('<a>', '', '')).toEqual(odd);
    expect(o.find('<b>', '', '')).toEqual(upper);
    expect(o.find('<c>', '', '')).toEqual(high);
  });

  it('does not index a page with neither a record id nor a digest', () => {
    const o = new Origins();
    o.add(orig(1), '', 'http://x/', '');
    expect(o.find('', 'http://x/', '')).toBeNull();
  });
});
