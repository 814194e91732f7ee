/**
 * Zstandard frames for test fixtures (RFC 8878), written without a compressor: Node 20 has none, and a
 * fixture only needs valid frames. A frame holds its content in Raw blocks (§3.1.1.2.2, type 0: the
 * bytes as they are), at most 128 KiB each; the frame header states the content size (Single_Segment,
 * a 4-byte Frame_Content_Size) and, when asked, a dictionary id. Skippable frames (§3.1.2) carry data
 * a decoder passes over — the WARC zstd layout puts its dictionary in one at the start of the file.
 */

const MAGIC = 0xfd2fb528;
const BLOCK_MAX = 128 << 10;

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

/** One zstd frame of `content` in Raw blocks; `dictionaryId` sets the header's Dictionary_ID (4 bytes). */
export function zstdFrame(content: Uint8Array, dictionaryId?: number): Buffer {
  // Frame_Header_Descriptor: FCS flag 2 (4 bytes), Single_Segment 1, Dictionary_ID_flag 3 (4 bytes) or 0.
  const descriptor = (2 << 6) | (1 << 5) | (dictionaryId !== undefined ? 3 : 0);
  const parts: Buffer[] = [u32(MAGIC), Buffer.from([descriptor])];
  if (dictionaryId !== undefined) parts.push(u32(dictionaryId));
  parts.push(u32(content.length));
  let at = 0;
  do {
    const size = Math.min(BLOCK_MAX, content.length - at);
    const last = at + size >= content.length ? 1 : 0;
    const header = last | (0 << 1) | (size << 3);
    parts.push(Buffer.from([header & 0xff, (header >>> 8) & 0xff, (header >>> 16) & 0xff]));
    parts.push(Buffer.from(content.subarray(at, at + size)));
    at += size;
  } while (at < content.length);
  return Buffer.concat(parts);
}

/** A skippable frame (magic 0x184D2A50 + n) holding `data`. */
export function skippableFrame(data: Uint8Array, n = 0): Buffer {
  return Buffer.concat([u32(0x184d2a50 + n), u32(data.length), Buffer.from(data)]);
}
