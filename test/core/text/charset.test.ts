import { describe, expect, it } from 'vitest';
import { bomCharset, charsetFromContentType, decodeText, metaCharset } from '../../../src/core/text/charset';
import { concat, utf8Bytes } from '../helpers';

const bytes = (...b: number[]) => new Uint8Array(b);
const html = (head: string, body: Uint8Array) =>
  concat(utf8Bytes(`<html><head>${head}<title>`), body, utf8Bytes('</title></head></html>'));

describe('charsetFromContentType', () => {
  it('reads the charset parameter, quoted or not, any case', () => {
    expect(charsetFromContentType('text/html; charset=UTF-8')).toBe('UTF-8');
    expect(charsetFromContentType('text/html;charset="gbk"')).toBe('gbk');
    expect(charsetFromContentType("text/html; Charset = 'Shift_JIS'; x=y")).toBe('Shift_JIS');
    expect(charsetFromContentType('text/html')).toBe('');
    expect(charsetFromContentType(undefined)).toBe('');
  });
});

describe('bomCharset and metaCharset', () => {
  it('recognises UTF-8 and UTF-16 byte-order marks', () => {
    expect(bomCharset(bytes(0xef, 0xbb, 0xbf, 0x41))).toBe('utf-8');
    expect(bomCharset(bytes(0xfe, 0xff, 0, 0x41))).toBe('utf-16be');
    expect(bomCharset(bytes(0xff, 0xfe, 0x41, 0))).toBe('utf-16le');
    expect(bomCharset(utf8Bytes('<html>'))).toBe('');
  });

  it('finds <meta charset> and <meta http-equiv content=…charset=…> in the first 1024 bytes only', () => {
    expect(metaCharset(utf8Bytes('<meta charset="gbk">'))).toBe('gbk');
    expect(metaCharset(utf8Bytes('<META CHARSET=big5 >'))).toBe('big5');
    expect(
      metaCharset(utf8Bytes('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">')),
    ).toBe('Shift_JIS');
    expect(metaCharset(utf8Bytes(' '.repeat(1100) + '<meta charset="gbk">'))).toBe('');
    expect(metaCharset(utf8Bytes('<p>charset=gbk</p>'))).toBe('');
  });
});

describe('decodeText', () => {
  it('uses the HTTP header charset, which wins over <meta>', () => {
    const body = html('<meta charset="iso-8859-1">', utf8Bytes('Ελληνικά'));
    const d = decodeText(body, 'text/html; charset=utf-8', true);
    expect(d.charset).toBe('utf-8');
    expect(d.text).toContain('<title>Ελληνικά</title>');
  });

  it('lets a byte-order mark win over the header, and drops the BOM from the text', () => {
    const body = concat(bytes(0xef, 0xbb, 0xbf), utf8Bytes('naïve ✓'));
    const d = decodeText(body, 'text/html; charset=windows-1252', true);
    expect(d).toEqual({ text: 'naïve ✓', charset: 'utf-8' });
    const le = decodeText(bytes(0xff, 0xfe, 0x41, 0, 0x42, 0), undefined, false);
    expect(le).toEqual({ text: 'AB', charset: 'utf-16le' });
  });

  it('falls back to <meta> when the header names a charset the platform does not know', () => {
    const body = html('<meta charset="gbk">', bytes(0xd6, 0xd0, 0xce, 0xc4));
    const d = decodeText(body, 'text/html; charset=x-no-such-charset', true);
    expect(d.charset).toBe('gbk');
    expect(d.text).toContain('<title>中文</title>');
  });

  it('reads <meta> only when asked to sniff it', () => {
    const body = html('<meta charset="gbk">', bytes(0xd6, 0xd0, 0xce, 0xc4));
    expect(decodeText(body, 'text/html', true)).toMatchObject({ charset: 'gbk' });
    expect(decodeText(body, 'text/html', true).text).toContain('<title>中文</title>');
    // Not sniffed: GBK bytes are not valid UTF-8, so windows-1252.
    expect(decodeText(body, 'text/html', false).charset).toBe('windows-1252');
  });

  it('decodes legacy CJK charsets (GBK, Big5, Shift_JIS, GB18030 four-byte sequences)', () => {
    const cases: [string, number[], string][] = [
      ['gbk', [0xd6, 0xd0, 0xce, 0xc4], '中文'],
      ['big5', [0xa4, 0xa4, 0xa4, 0xe5], '中文'],
      ['shift_jis', [0x93, 0xfa, 0x96, 0x7b], '日本'],
      ['gb18030', [0x94, 0x39, 0xfc, 0x36, 0x95, 0x32, 0x82, 0x36], '😀𠀀'],
    ];
    for (const [label, b, text] of cases) {
      expect(decodeText(bytes(...b), `text/html; charset=${label}`, false)).toEqual({ text, charset: label });
    }
  });

  it('treats a <meta> declaring UTF-16 as UTF-8 (the page is ASCII-compatible)', () => {
    const body = html('<meta charset="utf-16">', utf8Bytes('café'));
    const d = decodeText(body, undefined, true);
    expect(d.charset).toBe('utf-8');
    expect(d.text).toContain('café');
  });

  it('skips an unknown label and falls back to UTF-8 when the bytes are valid UTF-8', () => {
    expect(decodeText(utf8Bytes('日本 ✓'), 'text/html; charset=x-no-such-charset', false)).toEqual({
      text: '日本 ✓',
      charset: 'utf-8',
    });
    expect(decodeText(utf8Bytes('plain ascii'), undefined, true)).toEqual({
      text: 'plain ascii',
      charset: 'utf-8',
    });
  });

  it('falls back to windows-1252 with the WHATWG mapping of bytes 0x80–0x9F', () => {
    // "Café “Zürich” – €5 Ÿ" in windows-1252: not valid UTF-8.
    const cp = bytes(
      0x43,
      0x61,
      0x66,
      0xe9,
      0x20,
      0x93,
      0x5a,
      0xfc,
      0x72,
      0x69,
      0x63,
      0x68,
      0x94,
      0x20,
      0x96,
      0x20,
      0x80,
      0x35,
      0x20,
      0x9f,
    );
    expect(decodeText(cp, undefined, false)).toEqual({
      text: 'Café “Zürich” – €5 Ÿ',
      charset: 'windows-1252',
    });
    // Labels that WHATWG maps to windows-1252 get the same mapping.
    for (const label of ['iso-8859-1', 'latin1', 'us-ascii', 'windows-1252']) {
      expect(decodeText(cp, `text/plain; charset=${label}`, false)).toEqual({
        text: 'Café “Zürich” – €5 Ÿ',
        charset: 'windows-1252',
      });
    }
  });
});
