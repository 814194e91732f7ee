"""The field's own tools on the same inputs, for `npm run bench:peers` (never a dependency of the
product): FastWARC and warcio iterating a WARC's response records and reading their payloads,
Resiliparse's HTML-to-text over the HTML payloads, datasketch's MinHash and MinHashLSH over given
shingle sets. Each mode prints one JSON line: seconds and what it counted."""
import json
import sys
import time


def fastwarc_read(path):
    from fastwarc.warc import ArchiveIterator, WarcRecordType
    n = b = 0
    t = time.perf_counter()
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
            b += len(rec.reader.read())
            n += 1
    return {"seconds": time.perf_counter() - t, "records": n, "bytes": b}


def warcio_read(path):
    from warcio.archiveiterator import ArchiveIterator
    n = b = 0
    t = time.perf_counter()
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f):
            if rec.rec_type == "response":
                b += len(rec.content_stream().read())
                n += 1
    return {"seconds": time.perf_counter() - t, "records": n, "bytes": b}


def resiliparse_text(path):
    from fastwarc.warc import ArchiveIterator, WarcRecordType
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    bodies = []
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
            if "html" in (rec.http_content_type or ""):
                bodies.append(rec.reader.read())
    chars = 0
    t = time.perf_counter()
    for body in bodies:
        chars += len(extract_plain_text(bytes_to_str(body, detect_encoding(body))))
    return {"seconds": time.perf_counter() - t, "pages": len(bodies), "chars": chars}


def datasketch_minhash(path, threshold):
    from datasketch import MinHash, MinHashLSH
    with open(path, encoding="utf-8") as f:
        sets = [json.loads(line) for line in f]
    data = [[str(s).encode() for s in shingles] for shingles in sets]
    t = time.perf_counter()
    sigs = []
    for d in data:
        m = MinHash(num_perm=128, seed=1)
        m.update_batch(d)
        sigs.append(m)
    sketch = time.perf_counter() - t
    t = time.perf_counter()
    lsh = MinHashLSH(threshold=threshold, num_perm=128)
    for i, m in enumerate(sigs):
        lsh.insert(i, m)
    pairs = 0
    for i, m in enumerate(sigs):
        pairs += sum(1 for j in lsh.query(m) if j > i)
    return {"sketchSeconds": sketch, "lshSeconds": time.perf_counter() - t, "pages": len(sets), "pairs": pairs}


if __name__ == "__main__":
    mode, path = sys.argv[1], sys.argv[2]
    if mode == "fastwarc":
        out = fastwarc_read(path)
    elif mode == "warcio":
        out = warcio_read(path)
    elif mode == "resiliparse":
        out = resiliparse_text(path)
    elif mode == "datasketch":
        out = datasketch_minhash(path, float(sys.argv[3]))
    else:
        raise SystemExit(f"unknown mode {mode}")
    print(json.dumps(out))
