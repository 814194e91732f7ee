"""Real zstd files for test/core/ingest/zstd-real.test.ts, written by the reference library.

argv: an output folder and the plain files to compress (tiny.warc's records as separate files, then a
JSONL file). Writes:
  records.warc.zst   one frame per record, level 3, content size and checksum in each header
  pages.jsonl.zst    one frame at level 19 with a checksum
  stream.jsonl.zst   the JSONL repeated to ~3 MB, compressed as a stream: no content size, a window
                     descriptor (not single segment), many compressed blocks
  dict.jsonl.zst     the JSONL compressed with a trained dictionary (its id in the frame header)
"""
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
