"""Real zstd files for test/core/codecs/zstd-real.test.ts, written by the reference library.

argv: an output folder and the plain files to compress (tiny.warc's records as separate files, then a
JSONL file). Writes:
  records.warc.zst   one frame per record, level 3, content size and checksum in each header
  pages.jsonl.zst    one frame at level 19 with a checksum
  stream.jsonl.zst   the JSONL repeated to ~3 MB, compressed as a stream: no content size, a window
                     descriptor (not single segment), many compressed blocks
  dict.jsonl.zst     the JSONL compressed with a trained dictionary (its id in the frame header)
  dict.warc.zst      the WARC zstd layout: a skippable frame (magic 0x184D2A5D) holding the dictionary,
                     then one frame per record made with it
  dict-compressed.warc.zst  the same, the dictionary itself zstd-compressed in its frame
"""
import struct
import os
import sys

import zstandard as zstd

out = sys.argv[1]
records = [open(p, "rb").read() for p in sys.argv[2:-1]]
jsonl = open(sys.argv[-1], "rb").read()

c3 = zstd.ZstdCompressor(level=3, write_checksum=True, write_content_size=True)
with open(os.path.join(out, "records.warc.zst"), "wb") as f:
    for r in records:
        f.write(c3.compress(r))

with open(os.path.join(out, "pages.jsonl.zst"), "wb") as f:
    f.write(zstd.ZstdCompressor(level=19, write_checksum=True).compress(jsonl))

big = jsonl * max(1, (3 << 20) // max(1, len(jsonl)))
with open(os.path.join(out, "stream.jsonl.zst"), "wb") as f:
    cs = zstd.ZstdCompressor(level=5, write_content_size=False)
    with cs.stream_writer(f, closefd=False) as w:
        for i in range(0, len(big), 100_000):
            w.write(big[i : i + 100_000])
with open(os.path.join(out, "stream.jsonl"), "wb") as f:
    f.write(big)

samples = [jsonl[i : i + 300] for i in range(0, len(jsonl), 50)] * 20
d = zstd.train_dictionary(4096, samples)
with open(os.path.join(out, "dict.jsonl.zst"), "wb") as f:
    f.write(zstd.ZstdCompressor(dict_data=d).compress(jsonl))

rsamples = [r[i : i + 200] for r in records for i in range(0, len(r), 40)] * 10
rd = zstd.train_dictionary(2048, rsamples)
cd = zstd.ZstdCompressor(level=3, dict_data=rd, write_checksum=True)
for name, blob in (("dict.warc.zst", rd.as_bytes()), ("dict-compressed.warc.zst", zstd.ZstdCompressor(level=19).compress(rd.as_bytes()))):
    with open(os.path.join(out, name), "wb") as f:
        f.write(struct.pack("<II", 0x184D2A5D, len(blob)))
        f.write(blob)
        for r in records:
            f.write(cd.compress(r))
