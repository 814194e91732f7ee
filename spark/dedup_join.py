"""The join step of `npm run batch` on Apache Spark: the same sql/dedup.sql as the DuckDB join.

    spark-submit [--master ...] spark/dedup_join.py --out DIR [--results DIR2] [--against DIR0]

DIR is the folder the map step wrote (`npm run batch -- --step map --out DIR FILE...`, or one map
task per shard from any scheduler): its `shards/<name>-<key>/` folders (pages, bands and shingles
Parquet, and a `_SUCCESS` marker each) and `join.json`, the SQL variables of the profile the map step
ran. DIR0, with --against, is an earlier crawl's such folder: its pages join as the earlier crawl and
revisits.parquet says which of the crawl's pages revisit them. DIR, DIR0 and DIR2 may be any path
Spark reads and writes (local, hdfs://, s3a://, ...).

The driver exposes the finished shards as the three views the SQL reads, runs its named statements
in the order the DuckDB driver (src/cli/batch-join.ts) runs them, loops the profile's clustering (star
rounds until no page is undecided, or the label propagation until no label changes; for the chain
guard, each connected component split on the executors by guarded_groups, the Python reading of
src/core/batch/guarded.ts), and writes clusters, remove, pairs and summary (and revisits) as Parquet
folders and summary.json into DIR2 (default DIR/spark), staged in DIR2/.join-tmp and moved into place
when the join has succeeded. Every other rule is in sql/dedup.sql, so both engines give the same rows.
"""

import argparse
import json
import os
import re
import struct
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql.functions import lit

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SQL = os.path.join(HERE, "..", "sql", "dedup.sql")
# After the label propagation, in the DuckDB driver's order; then the tables written out.
JOIN_TABLES = ["kept", "lost", "gone", "clusters", "remove", "pairs", "summary"]
RESULT_TABLES = ["clusters", "remove", "pairs", "summary", "rejected"]


def named_statements(text):
    """`-- name: NAME` blocks of the SQL file, comments dropped (src/core/batch/sql.ts parseNamedSql)."""
    out = {}
    name, body = None, []

    def close():
        if name is None:
            return
        sql = "\n".join(l for l in body if not re.match(r"^\s*--", l)).strip()
        sql = re.sub(r";\s*$", "", sql)
        if name in out:
            raise ValueError(f'SQL statement "{name}" is defined twice')
        out[name] = sql

    for line in text.split("\n"):
        m = re.match(r"^--\s*name:\s*(\S+)\s*$", line)
        if m:
            close()
            name, body = m.group(1), []
        else:
            body.append(line)
    close()
    return out


def substitute(sql, variables):
    """Each ${var} replaced; a variable the statement names but the driver lacks is an error."""

    def value(m):
        k = m.group(1)
        if k not in variables:
            raise KeyError(f"SQL variable ${{{k}}} has no value")
        return str(variables[k])

    return re.sub(r"\$\{(\w+)\}", value, sql)


def f32(x):
    """x rounded to a 32-bit float, as the workbench stores its measures (Math.fround)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def guarded_groups(pairs, floor):
    """The chain guard over one connected component: src/core/batch/guarded.ts step for step.

    `pairs` are (a, b, similarity, accepted) with similarity >= floor. Pages are numbered in id order,
    pairs kept in (a, b) order; accepted pairs are taken by similarity (32-bit) descending, ties by
    that order, and two groups are merged only when every pair across them is a pair here with
    similarity >= floor. Returns the groups of 2 pages or more, each as ascending ids.
    """
    ids = sorted({p[0] for p in pairs} | {p[1] for p in pairs})
    local = {page: i for i, page in enumerate(ids)}
    rows = sorted(
        (min(local[a], local[b]), max(local[a], local[b]), f32(sim), bool(acc)) for a, b, sim, acc in pairs
    )
    sim_of = {(a, b): sim for a, b, sim, _ in rows}
    ordered = sorted((k for k in range(len(rows)) if rows[k][3]), key=lambda k: (-rows[k][2], k))
    parent = list(range(len(ids)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    groups = {}

    def group(i):
        r = find(i)
        if r not in groups:
            groups[r] = [i]
        return groups[r]

    def close(i, j):
        s = sim_of.get((min(i, j), max(i, j)))
        return s is not None and s >= floor

    for k in ordered:
        a, b = rows[k][0], rows[k][1]
        ga, gb = group(a), group(b)
        if ga is gb:
            continue
        if not all(close(x, y) for x in ga for y in gb):
            continue
        del groups[find(a)]
        del groups[find(b)]
        parent[find(a)] = find(b)
        groups[find(a)] = ga + gb
    return [[ids[i] for i in sorted(g)] for g in groups.values() if len(g) > 1]


def apply_links(members, pairs, must, cannot, star):
    """The analyst's decisions over the clusters they touch: src/core/clusters/overrides.ts applyLinks
    (through src/core/batch/override-groups.ts) step for step.

    `members` are (page, label) of every touched cluster, `pairs` (a, b, similarity) the accepted pairs
    among them, `must`/`cannot` pairs of page ids. Pages are numbered in id order, pairs kept in (a, b)
    order. Returns the groups of 2 pages or more as ascending ids, and the must-links refused.
    """
    ids = sorted({p for p, _ in members} | {x for l in must + cannot for x in l})
    local = {page: i for i, page in enumerate(ids)}
    by_label = {}
    for page, label in sorted(members):
        by_label.setdefault(label, []).append(local[page])
    base = list(by_label.values())
    rows = sorted((min(local[a], local[b]), max(local[a], local[b]), f32(s)) for a, b, s in pairs)
    must_l = [(local[x], local[y]) for x, y in must]
    cannot_l = [(local[x], local[y]) for x, y in cannot]
    key = lambda x, y: (min(x, y), max(x, y))
    cannot_set = {key(x, y) for x, y in cannot_l}
    cannot_of = {}
    for x, y in cannot_l:
        cannot_of.setdefault(x, []).append(y)
        cannot_of.setdefault(y, []).append(x)
    # Step 2: clusters joined by must-links (a page in no cluster joining its partner's).
    cluster_of = {}
    for i, c in enumerate(base):
        for m in c:
            cluster_of[m] = i
    parent = list(range(len(base) + 2 * len(must_l)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    loose = {}
    extra = [len(base)]

    def slot_of(page):
        if page in cluster_of:
            return cluster_of[page]
        if page not in loose:
            loose[page] = extra[0]
            extra[0] += 1
        return loose[page]

    for x, y in must_l:
        rx, ry = find(slot_of(x)), find(slot_of(y))
        if rx != ry:
            parent[ry] = rx
    merged = {}
    order = []

    def collect(slot, pages):
        r = find(slot)
        if r not in merged:
            merged[r] = (set(), [])
            order.append(r)
        merged[r][0].update(pages)
        merged[r][1].append(slot)

    for i, c in enumerate(base):
        collect(i, c)
    for page, slot in loose.items():
        collect(slot, [page])
    out, conflicts = [], []
    for r in order:
        members_set, parts = merged[r]
        ms = sorted(members_set)
        violated = any(o in members_set for m in ms for o in cannot_of.get(m, []))
        if len(parts) == 1 and parts[0] < len(base) and not violated:
            out.append(sorted(base[parts[0]]))
            continue
        if len(ms) < 2:
            continue
        inside = [p for p in rows if p[0] in members_set and p[1] in members_set]
        lp = {m: m for m in ms}

        def lfind(i):
            while lp[i] != i:
                lp[i] = lp[lp[i]]
                i = lp[i]
            return i

        sets = {m: {m} for m in ms}

        def join(x, y):
            rx, ry = lfind(x), lfind(y)
            if rx == ry:
                return True
            small, big = (sets[rx], sets[ry]) if len(sets[rx]) < len(sets[ry]) else (sets[ry], sets[rx])
            if any(o in big for p in small for o in cannot_of.get(p, [])):
                return False
            lp[ry] = rx
            big |= small
            del sets[rx], sets[ry]
            sets[rx] = big
            return True

        for x, y in must_l:
            if x in members_set and y in members_set and x != y and not join(x, y):
                conflicts.append((ids[min(x, y)], ids[max(x, y)]))
        usable = [p for p in inside if key(p[0], p[1]) not in cannot_set]
        if star:
            out.extend(star_split(ms, usable, lfind, cannot_of))
            continue
        for k in sorted(range(len(usable)), key=lambda k: (-usable[k][2], k)):
            join(usable[k][0], usable[k][1])
        parts_by = {}
        for m in ms:
            parts_by.setdefault(lfind(m), []).append(m)
        out.extend(g for g in parts_by.values() if len(g) >= 2)
    return [sorted(ids[i] for i in g) for g in out], conflicts


def star_split(members, pairs, unit_of, cannot_of):
    """overrides.ts starSplit: centres by their pairs in the group, each taking its free neighbours
    with their must-linked units, none across a cannot-link."""
    units = {}
    for m in members:
        units.setdefault(unit_of(m), []).append(m)
    nbr = {m: [] for m in members}
    for a, b, _ in pairs:
        nbr[a].append(b)
        nbr[b].append(a)
    order = sorted(members, key=lambda m: (-len(nbr[m]), m))
    taken, out = set(), []
    for c in order:
        if c in taken:
            continue
        star = set(units[unit_of(c)])
        for m in sorted(nbr[c]):
            if m in taken or m in star:
                continue
            unit = units[unit_of(m)]
            if any(u in taken for u in unit) or any(o in star for p in unit for o in cannot_of.get(p, [])):
                continue
            star.update(unit)
        taken |= star
        if len(star) >= 2:
            out.append(sorted(star))
    return out


class Files:
    """Paths on whatever file system Spark's Hadoop configuration reads (local, HDFS, S3, ...)."""

    def __init__(self, spark):
        self.jvm = spark._jvm
        self.conf = spark._jsc.hadoopConfiguration()

    def _fs(self, path):
        p = self.jvm.org.apache.hadoop.fs.Path(path)
        return p, p.getFileSystem(self.conf)

    def glob(self, pattern):
        p, fs = self._fs(pattern)
        found = fs.globStatus(p)
        return sorted(str(s.getPath().toString()) for s in (found or []))

    def exists(self, path):
        p, fs = self._fs(path)
        return fs.exists(p)

    def read_text(self, path):
        p, fs = self._fs(path)
        stream = fs.open(p)
        try:
            reader = self.jvm.java.io.BufferedReader(self.jvm.java.io.InputStreamReader(stream, "UTF-8"))
            lines = []
            while True:
                line = reader.readLine()
                if line is None:
                    break
                lines.append(line)
            return "\n".join(lines)
        finally:
            stream.close()

    def write_text(self, path, text):
        p, fs = self._fs(path)
        out = fs.create(p, True)
        try:
            out.write(bytearray(text.encode("utf-8")))
        finally:
            out.close()

    def delete(self, path):
        p, fs = self._fs(path)
        if fs.exists(p):
            fs.delete(p, True)

    def rename(self, src, dst):
        s, fs = self._fs(src)
        d, _ = self._fs(dst)
        if not fs.rename(s, d):
            raise IOError(f"cannot move {src} to {dst}")


def parse(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="the map step's folder (shards/ and join.json)")
    ap.add_argument("--results", help="where the results go (default OUT/spark)")
    ap.add_argument("--sql", default=DEFAULT_SQL, help="the SQL file (default: the repository's sql/dedup.sql)")
    ap.add_argument("--vars", help="the SQL variables as JSON (default OUT/join.json)")
    ap.add_argument("--master", help="Spark master when run with python instead of spark-submit")
    ap.add_argument("--against", help="an earlier crawl's map output: its pages kept first, revisits written")
    ap.add_argument(
        "--jobs",
        help="a JSON file holding a list of argument lists: each is a join run in turn in this one Spark "
        "session (the tests run several joins without starting Spark for each)",
    )
    args = ap.parse_args(argv)
    if not args.out and not args.jobs:
        ap.error("--out is required")
    return args


def main(argv):
    args = parse(argv)
    jobs = [args]
    if args.jobs:
        with open(args.jobs, encoding="utf-8") as f:
            jobs = [parse(a) for a in json.load(f)]
    # One session for every job; its warehouse (the scratch tables) beside the first job's results, where
    # the executors can write (shared storage on a cluster), removed at the end.
    first = jobs[0]
    first_results = (first.results or first.out.rstrip("/") + "/spark").rstrip("/")
    warehouse = f"{first_results}/.join-warehouse"
    builder = (
        SparkSession.builder.appName("dedup-workbench join")
        # CREATE TABLE ... AS SELECT without USING makes a data source table (Parquet), not a Hive one.
        .config("spark.sql.legacy.createHiveTableByDefault", "false")
        .config("spark.sql.warehouse.dir", warehouse)
    )
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    try:
        for job in jobs:
            join_once(spark, job)
    finally:
        Files(spark).delete(warehouse)
        spark.stop()
    return 0


def join_once(spark, args):
    out = args.out.rstrip("/")
    results = (args.results or f"{out}/spark").rstrip("/")
    files = Files(spark)
    log = lambda line: print(line, file=sys.stderr, flush=True)
    t0 = time.time()

    with open(args.sql, encoding="utf-8") as f:
        statements = named_statements(f.read())
    plan = json.loads(files.read_text(args.vars or f"{out}/join.json"))
    # The spellings that differ between engines (src/cli/batch-join.ts DUCKDB_SPELLING).
    variables = {
        **plan["vars"],
        "simhash_distance": "bit_count(pa.simhash ^ pb.simhash)",
        "intersection_size": "size(array_intersect(x.shingles, y.shingles))",
    }
    method = variables["method"]
    # A plan written before the join computed stars was always joined as connected components.
    clustering = variables.get("clustering", "components")
    # A plan written before these variables existed: the guard's floor (CHAIN_FLOOR) and the lowest
    # similarity an output needs, as src/cli/batch-profile.ts joinVars sets them.
    variables.setdefault("guard_floor", 0.5)
    low = min(float(variables["jaccard"]), float(variables["guard_floor"]))
    variables.setdefault("min_similarity", low if clustering == "guarded" else variables["jaccard"])
    if clustering not in ("components", "star", "guarded"):
        raise ValueError(f"the join computes star clusters, components and the chain guard, not {clustering}")

    def sql(name):
        if name not in statements:
            raise KeyError(f'{args.sql} has no statement "{name}"')
        return substitute(statements[name], variables)

    timings = {}

    def run(name, text=None):
        text = text if text is not None else sql(name)
        t = time.time()
        m = re.match(r"\s*CREATE\s+TABLE\s+(\w+)", text, re.I)
        # A rerun in a persistent catalog finds the tables of the last one.
        if m:
            spark.sql(f"DROP TABLE IF EXISTS {m.group(1)}")
        rows = spark.sql(text).collect()
        timings[name] = timings.get(name, 0) + (time.time() - t) * 1000
        return rows

    count = lambda q: int(spark.sql(q).collect()[0][0])

    stage = f"{results}/.join-tmp"
    for t in RESULT_TABLES + ["revisits"]:
        files.delete(f"{results}/{t}.parquet")
    files.delete(f"{results}/summary.json")
    try:
        shards = [p.rsplit("/", 1)[0] for p in files.glob(f"{out}/shards/*/_SUCCESS")]
        if not shards:
            raise RuntimeError(f"no finished shard in {out}/shards: run the map step first")
        earlier = []
        if args.against:
            earlier = [p.rsplit("/", 1)[0] for p in files.glob(f"{args.against.rstrip('/')}/shards/*/_SUCCESS")]
            if not earlier:
                raise RuntimeError(f"--against {args.against}: no finished shard there")
        # Pages say which crawl they are of: 'new' (the shards joined) or 'earlier' (--against).
        pages = spark.read.parquet(*[f"{s}/pages.parquet" for s in shards]).withColumn("crawl", lit("new"))
        if earlier:
            old = spark.read.parquet(*[f"{s}/pages.parquet" for s in earlier]).withColumn("crawl", lit("earlier"))
            pages = pages.unionByName(old)
        pages.createOrReplaceTempView("pages")
        for t in ["bands", "shingles"]:
            spark.read.parquet(*[f"{s}/{t}.parquet" for s in shards + earlier]).createOrReplaceTempView(t)
        run("stands")
        run("buckets")
        row = run("anchored")[0]
        anchored = {"buckets": int(row["buckets"]), "memberships": int(row["memberships"])}
        if anchored["buckets"] > 0:
            log(
                f"join: {anchored['buckets']:,} LSH bucket(s) over {variables['full_bucket']} pages verified "
                f"against their {variables['anchors']} anchors, as the workbench verifies them"
            )
        run("members")
        candidates = 0
        if method == "minhash":
            run("anchors")
            run("candidates")
            candidates = count("SELECT COUNT(*) FROM candidates")
            for t in ["verify.minhash", "sets.minhash", "scored.minhash"]:
                run(t)
        elif method == "simhash":
            run("anchors")
            run("candidates")
            candidates = count("SELECT COUNT(*) FROM candidates")
        run(f"edges.{method}")
        edges = count("SELECT COUNT(*) FROM edges")
        run(f"rejected.{method}")
        rejected = count("SELECT COUNT(*) FROM rejected")
        if method == "exact":
            candidates = edges
        log(f"join: {candidates:,} candidate pairs, {edges:,} verified ({method}) on {len(shards)} shard(s)")
        def swap(table):
            spark.sql(f"DROP TABLE {table}")
            spark.sql(f"ALTER TABLE {table}_next RENAME TO {table}")

        iterations = 0
        if clustering == "star":
            for t in ["star.rank", "star.before", "star.init"]:
                run(t)
            while True:
                iterations += 1
                run("star.promote")
                swap("star")
                run("star.take")
                swap("star")
                undecided = int(run("star.undecided")[0][0])
                log(f"join: star round {iterations}: {undecided:,} pages undecided")
                if undecided == 0:
                    break
            run("star.members")
            run("labels.star")
        else:
            run("labels.init")
            while True:
                iterations += 1
                run("labels.step")
                changed = int(run("labels.changed")[0][0])
                swap("labels")
                log(f"join: label propagation iteration {iterations}: {changed:,} labels changed")
                if changed == 0:
                    break
            if clustering == "guarded" and method == "minhash":
                # Each component split by the chain guard, on the executors (one component a task).
                for t in ["guard.pairs", "guard.kept", "guard"]:
                    run(t)
                floor = float(variables["guard_floor"])
                groups = (
                    spark.table("guard")
                    .rdd.map(lambda r: (r["label"], (r["a"], r["b"], r["similarity"], r["accepted"])))
                    .groupByKey()
                    .flatMap(lambda kv: guarded_groups(list(kv[1]), floor))
                )
                labels = groups.flatMap(lambda g: [(page, g[0]) for page in g])
                spark.sql("DROP TABLE IF EXISTS labels_next")
                computed = spark.createDataFrame(labels, "page BIGINT, label BIGINT")
                spark.table("guard_kept").select("page", "label").unionAll(computed).write.saveAsTable("labels_next")
                swap("labels")
        # The analyst's decisions (the profile's overrides; their URLs normalised by the map step).
        decided = plan.get("overrides") or {"rows": [], "kinds": []}
        if decided["kinds"]:
            spark.sql("DROP TABLE IF EXISTS override_urls")
            spark.createDataFrame(
                [tuple(r) for r in decided["rows"]], "k INT, side INT, norm STRING, canon STRING"
            ).write.saveAsTable("override_urls")
            run("overrides.pages")
            at = {(r["k"], r["side"]): r["page"] for r in spark.table("override_pages").collect() if r["page"] is not None}
            must, cannot = [], []
            for k, kind in enumerate(decided["kinds"]):
                a, b = at.get((k, 0)), at.get((k, 1))
                if a is None or b is None or a == b:
                    continue
                (must if kind == "must" else cannot).append((a, b))
            run("overrides.members")
            members = [(r["page"], r["label"]) for r in spark.table("override_members").collect()]
            pairs = [(r["a"], r["b"], r["similarity"]) for r in spark.sql(sql("overrides.pairs")).collect()]
            groups, conflicts = apply_links(members, pairs, must, cannot, clustering == "star")
            run("overrides.rest")
            regrouped = [(page, g[0]) for g in groups for page in g]
            if regrouped:
                spark.createDataFrame(regrouped, "page BIGINT, label BIGINT").write.insertInto("labels_next")
            swap("labels")
            log(f"join: decisions: {len(must) + len(cannot)} placed, {len(groups)} clusters regrouped, {len(conflicts)} refused")
        for t in JOIN_TABLES:
            run(t)
        written = RESULT_TABLES + (["revisits"] if earlier else [])
        if earlier:
            run("revisits")
        for t in written:
            t1 = time.time()
            spark.table(t).write.mode("overwrite").parquet(f"{stage}/{t}.parquet")
            timings[f"write.{t}"] = (time.time() - t1) * 1000
        summary = [
            {
                "host": r["host"],
                "pages": int(r["pages"]),
                "pages_in_clusters": int(r["pages_in_clusters"]),
                "clusters": int(r["clusters"]),
                "duplicates_removed": int(r["duplicates_removed"]),
                "unique_payloads": int(r["unique_payloads"]),
                "bytes": int(r["bytes"]),
                "bytes_conserved": int(r["bytes_conserved"]),
                "captures_folded": int(r["captures_folded"]),
                "loses_text": int(r["loses_text"]),
            }
            for r in spark.sql("SELECT * FROM summary ORDER BY host NULLS FIRST").collect()
        ]
        result = {
            "engine": f"spark {spark.version}",
            "profile": plan.get("profile"),
            "method": method,
            "clustering": clustering,
            "candidates": candidates,
            "edges": edges,
            "rejected": rejected,
            "iterations": iterations,
            "anchored": anchored,
            "summary": summary,
            "timings": timings,
            "elapsedMs": (time.time() - t0) * 1000,
        }
        if earlier:
            kinds = {"identical-payload": 0, "identical-text": 0, "near": 0}
            for r in spark.sql("SELECT kind, COUNT(*) AS n FROM revisits GROUP BY kind").collect():
                kinds[r["kind"]] = int(r["n"])
            result["against"] = {
                "dir": args.against,
                "pages": count("SELECT COUNT(*) FROM pages WHERE crawl = 'earlier'"),
                "revisits": kinds,
            }
        files.write_text(f"{stage}/summary.json", json.dumps(result, indent=2))
        for t in written:
            files.rename(f"{stage}/{t}.parquet", f"{results}/{t}.parquet")
        files.rename(f"{stage}/summary.json", f"{results}/summary.json")
    finally:
        scratch = ["stands", "buckets", "members", "anchors", "candidates", "verify", "sets", "scored", "edges"]
        scratch += ["labels", "labels_next"]
        scratch += ["guard_pairs", "guard_kept", "guard"]
        scratch += ["override_urls", "override_pages", "override_members"]
        scratch += ["star_rank", "star_before", "star", "star_next", "star_members"]
        for t in [*scratch, *JOIN_TABLES, "revisits", "rejected"]:
            spark.sql(f"DROP TABLE IF EXISTS {t}")
        files.delete(stage)
    all_row = next((s for s in summary if s["host"] is None), None) or {}
    print(
        f"pages {all_row.get('pages', 0)}, clusters {all_row.get('clusters', 0)}, duplicates removed "
        f"{all_row.get('duplicates_removed', 0)} ({iterations} {'star rounds' if clustering == 'star' else 'label iterations'}, "
        f"{(time.time() - t0):.1f} s on Spark {spark.version}); results in {results}",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
