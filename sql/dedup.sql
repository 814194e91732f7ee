-- Dedup Workbench: the join step of `npm run batch`, over the map step's Parquet tables.
--
-- The driver (src/cli/batch.ts on DuckDB; on Spark, spark.read.parquet(...).createOrReplaceTempView)
-- first exposes the shards' files as three views:
--   pages(id, url, canonical_url, host, shard, shard_key, offset, fingerprint, length, shingle_count,
--         status, fetched_at, bytes, digest, is_canonical, simhash, surt, canonical_surt, text_length,
--         capture_key, norm_url, crawl)
-- (crawl: 'new' for the crawl's shards, 'earlier' for those of an earlier crawl it is joined against)
--   bands(page, method, band, key)      shingles(page, shingle)
-- then runs the statements below by name, replacing ${method}, ${jaccard}, ${hamming}, ${full_bucket},
-- ${anchors}, ${guard_floor} and ${min_similarity} with the profile's values (spark-sql substitutes ${var} the same way), loops the
-- clustering the profile names (star rounds or label propagation), and writes the result tables out.
-- Two variables are the engine's spelling, not a value: ${simhash_distance}, the Hamming distance of
-- pa.simhash and pb.simhash (DuckDB `bit_count(xor(a, b))`, Spark `bit_count(a ^ b)`), and
-- ${intersection_size}, the number of shingles the arrays x.shingles and y.shingles share (Spark
-- `size(array_intersect(…))`; DuckDB a scan of one array per element of the other for short arrays,
-- where that is faster than its hashing list functions, and the size of the union for long ones).
-- Only SQL that Spark SQL 3.x also has: CREATE TABLE … AS SELECT, DROP TABLE IF EXISTS,
-- ALTER TABLE … RENAME TO, inner/left joins, UNION ALL, GROUP BY … HAVING, GROUPING SETS, LEAST,
-- COALESCE, CASE, CAST(… AS FLOAT/DOUBLE), COUNT(DISTINCT …), array_agg, ROW_NUMBER() and MIN() OVER (PARTITION BY …). No QUALIFY, no
-- list literals, no macros; the array intersection each engine spells its own way is a variable (above).

-- name: stands
-- The pages that take part: captures of one URL (its normalised URL, within one crawl) are one page, the
-- earliest capture standing for it (an unknown time last, then the page id: its shard's key and its order
-- in the shard), as
-- the workbench folds them (src/core/candidates/captures.ts), unless the profile compares captures
-- (fold_captures = 0). The others are counted in the summary (captures_folded), in no cluster.
CREATE TABLE stands AS
SELECT id AS page
FROM (
  SELECT id, ROW_NUMBER() OVER (
           PARTITION BY crawl, norm_url
           ORDER BY CASE WHEN fetched_at = '' THEN 1 ELSE 0 END, fetched_at, id
         ) AS pos
  FROM pages
) r
WHERE pos = 1 OR ${fold_captures} = 0;

-- name: buckets
-- Band keys of the profile's method shared by 2 pages or more, with their size. (The method is a
-- constant here, not a grouping key: with a string in the key, this aggregate over every band row of
-- every page took twice as long at 3M pages. Nor is the bucket's smallest page kept here: almost every
-- group is one page, and a MIN(page) state in each of 147M groups at 3M generated pages took the
-- aggregate past its memory, 14.1–15.3 s against 10.5–10.9 s without it, 3.9–4.1 s at 1M either way;
-- edges.exact takes it from the few rows of members.)
CREATE TABLE buckets AS
SELECT '${method}' AS method, b.band, b.key, COUNT(*) AS size
FROM bands b
JOIN stands s ON s.page = b.page
WHERE b.method = '${method}'
GROUP BY b.band, b.key
HAVING COUNT(*) > 1;

-- name: anchored
-- LSH buckets of more than full_bucket pages are verified against their anchors only, as the workbench's
-- lshCandidates verifies them (lsh.ts LSH_BUCKET): counted here, summed over bands as the engine
-- counts them, with the pages they hold (a page counted once per band). No bucket is skipped.
SELECT COUNT(*) AS buckets, CAST(COALESCE(SUM(size), 0) AS BIGINT) AS memberships
FROM buckets
WHERE method = 'minhash' AND size > ${full_bucket};

-- name: members
-- The band rows of pages in a bucket, with its size: the band table read once, then only these rows
-- (a small share of it) are joined with each other.
CREATE TABLE members AS
SELECT x.band, x.key, x.page, k.size
FROM bands x
JOIN buckets k ON k.band = x.band AND k.key = x.key
JOIN stands s ON s.page = x.page
WHERE x.method = '${method}';

-- name: edges.exact
-- Equal fingerprints are duplicates by definition: each page is joined to its group's smallest id,
-- a star with as many edges as pages (the same components as all pairs, without the quadratic join).
CREATE TABLE edges AS
SELECT page AS a, root AS b, CAST(1.0 AS DOUBLE) AS similarity
FROM (SELECT page, MIN(page) OVER (PARTITION BY band, key) AS root FROM members) m
WHERE page <> root;

-- name: anchors
-- The anchors of each large bucket (LSH bands, SimHash blocks): its ${anchors} smallest page ids.
CREATE TABLE anchors AS
SELECT band, key, page
FROM (
  SELECT band, key, page, ROW_NUMBER() OVER (PARTITION BY band, key ORDER BY page) AS pos
  FROM members
  WHERE size > ${full_bucket}
) r
WHERE pos <= ${anchors};

-- name: candidates
-- Pairs that share a bucket, each pair once: LSH candidates (MMDS §3.4, pages that agree on every row
-- of at least one band) or SimHash's (Manku et al. §3, pages that agree on at least one of maxHamming + 1
-- blocks of the 64 bits). A bucket of up to full_bucket pages gives every pair; a larger one
-- (near-identical pages fill every bucket) each page with the anchors before it, about anchors × size
-- pairs, not size²/2, as the engine's lshCandidates and simhashCandidates bound theirs.
CREATE TABLE candidates AS
SELECT DISTINCT a, b
FROM (
  SELECT x.page AS a, y.page AS b
  FROM members x
  JOIN members y ON y.band = x.band AND y.key = x.key AND x.page < y.page
  WHERE x.size <= ${full_bucket}
  UNION ALL
  SELECT h.page AS a, y.page AS b
  FROM anchors h
  JOIN members y ON y.band = h.band AND y.key = h.key AND h.page < y.page
) c;

-- name: verify.minhash
-- The candidates worth verifying: |A ∩ B| / |A ∪ B| ≤ min(|A|, |B|) / max(|A|, |B|), so a pair whose
-- sizes alone keep it under min_similarity (the threshold, or the chain guard's floor when lower and
-- the guard applies) cannot be accepted, nor be a pair the guard looks up. Compared as the 32-bit float
-- the threshold is compared in: rounding keeps the order, so no pair that passes is left out. On
-- docsite's real pages this leaves half the candidates and half the shingles compared below.
CREATE TABLE verify AS
SELECT c.a, c.b
FROM candidates c
JOIN pages pa ON pa.id = c.a
JOIN pages pb ON pb.id = c.b
WHERE CAST(CAST(LEAST(pa.shingle_count, pb.shingle_count) AS DOUBLE)
           / GREATEST(pa.shingle_count, pb.shingle_count, 1) AS FLOAT) >= CAST(${min_similarity} AS FLOAT);

-- name: sets.minhash
-- The shingle sets of the pages in a pair to verify, one row per page with its set as an array and its
-- size: the shingle table is read once, and each pair below then costs its two arrays. (Before, one row
-- per (pair, shingle of a) was joined on (page, shingle) with the second pages' rows: at 3M generated
-- pages 154M rows, a hash table past the memory limit, and the step grew 11× for 3× the pages.)
CREATE TABLE sets AS
SELECT s.page, array_agg(s.shingle) AS shingles, COUNT(*) AS n
FROM shingles s
JOIN (SELECT a AS page FROM verify UNION SELECT b AS page FROM verify) v ON v.page = s.page
GROUP BY s.page;

-- name: scored.minhash
-- Exact Jaccard of each pair to verify: |A ∩ B| from the two arrays (${intersection_size}, each
-- engine's spelling: a shingle set holds each shingle once), then |A ∩ B| / (|A| + |B| − |A ∩ B|).
CREATE TABLE scored AS
SELECT i.a, i.b, i.inter / (i.na + i.nb - i.inter) AS similarity
FROM (
  SELECT v.a, v.b, CAST(${intersection_size} AS DOUBLE) AS inter, x.n AS na, y.n AS nb
  FROM verify v
  JOIN sets x ON x.page = v.a
  JOIN sets y ON y.page = v.b
) i;

-- name: edges.minhash
-- The candidates the threshold accepts. Compared as a 32-bit float with the threshold cast to one too,
-- as the workbench compares its stored Float32 measures (methods.ts storedThresholds): the same decision
-- on DuckDB (which would cast a bare literal to FLOAT) and on Spark (which would widen the FLOAT to
-- DOUBLE), so a pair exactly on the threshold (9/10 at 0.9) passes on both and in the workbench.
CREATE TABLE edges AS
SELECT a, b, similarity
FROM scored
WHERE CAST(similarity AS FLOAT) >= CAST(${jaccard} AS FLOAT);

-- name: edges.simhash
-- Candidates within the profile's Hamming distance; their similarity is 1 − distance / 64.
CREATE TABLE edges AS
SELECT c.a, c.b, 1.0 - CAST(${simhash_distance} AS DOUBLE) / 64.0 AS similarity
FROM candidates c
JOIN pages pa ON pa.id = c.a
JOIN pages pb ON pb.id = c.b
WHERE ${simhash_distance} <= ${hamming};

-- name: rejected.minhash
-- Evidence at batch scale: the candidate pairs verified and rejected (exact Jaccard under the threshold,
-- compared as the edges are), with their measure and both URLs — what a reviewer asks besides the
-- accepted pairs (pairs). Candidates the size bound left unverified (verify) are not among them.
CREATE TABLE rejected AS
SELECT s.a, s.b, s.similarity, pa.url AS url_a, pb.url AS url_b
FROM scored s
JOIN pages pa ON pa.id = s.a
JOIN pages pb ON pb.id = s.b
WHERE CAST(s.similarity AS FLOAT) < CAST(${jaccard} AS FLOAT);

-- name: rejected.simhash
-- The SimHash candidates farther than the profile's Hamming distance, with their similarity.
CREATE TABLE rejected AS
SELECT c.a, c.b, 1.0 - CAST(${simhash_distance} AS DOUBLE) / 64.0 AS similarity, pa.url AS url_a, pb.url AS url_b
FROM candidates c
JOIN pages pa ON pa.id = c.a
JOIN pages pb ON pb.id = c.b
WHERE ${simhash_distance} > ${hamming};

-- name: rejected.exact
-- Equal fingerprints are duplicates by definition: nothing is rejected (the table, empty, has the shape).
CREATE TABLE rejected AS
SELECT e.a, e.b, e.similarity, pa.url AS url_a, pb.url AS url_b
FROM edges e
JOIN pages pa ON pa.id = e.a
JOIN pages pb ON pb.id = e.b
WHERE 1 = 0;

-- name: labels.init
-- Connected components by min-label propagation: every page with an edge starts with the smaller end
-- of its edges as label.
CREATE TABLE labels AS
SELECT page, MIN(label) AS label
FROM (
  SELECT a AS page, LEAST(a, b) AS label FROM edges
  UNION ALL
  SELECT b AS page, LEAST(a, b) AS label FROM edges
) e
GROUP BY page;

-- name: labels.step
-- One iteration: a page takes the smallest label among itself and its neighbours. The driver repeats
-- it until `labels.changed` is 0 (at most the components' diameter times).
CREATE TABLE labels_next AS
SELECT n.page, MIN(l.label) AS label
FROM (
  SELECT a AS page, b AS other FROM edges
  UNION ALL
  SELECT b AS page, a AS other FROM edges
  UNION ALL
  SELECT page, page AS other FROM labels
) n
JOIN labels l ON l.page = n.other
GROUP BY n.page;

-- name: labels.changed
SELECT COUNT(*) AS changed
FROM labels_next n
JOIN labels l ON l.page = n.page
WHERE n.label <> l.label;

-- name: star.rank
-- Star clusters (the workbench's default, src/core/clusters/clusters.ts starsOf): centres are taken in
-- the order of their accepted degree, descending, ties by page id; each takes its neighbours not yet
-- taken. That greedy pass is the lexicographically first maximal independent set of the edge graph in
-- this order (a centre has no earlier centre as neighbour), every other page joining its earliest
-- centre neighbour: computed here in rounds, as a parallel engine can. First each page's degree.
CREATE TABLE star_rank AS
SELECT page, COUNT(*) AS deg
FROM (SELECT a AS page FROM edges UNION ALL SELECT b AS page FROM edges) e
GROUP BY page;

-- name: star.before
-- Each edge once per direction, kept where `earlier` comes before `page` in the centre order.
CREATE TABLE star_before AS
SELECT x.page, x.other AS earlier
FROM (SELECT a AS page, b AS other FROM edges UNION ALL SELECT b AS page, a AS other FROM edges) x
JOIN star_rank rp ON rp.page = x.page
JOIN star_rank ro ON ro.page = x.other
WHERE ro.deg > rp.deg OR (ro.deg = rp.deg AND x.other < x.page);

-- name: star.init
-- State 0: undecided; 1: centre; 2: taken by a centre.
CREATE TABLE star AS
SELECT page, 0 AS state FROM star_rank;

-- name: star.promote
-- One round, first half: an undecided page none of whose earlier neighbours is undecided is a centre
-- (none is a centre either: the second half would have taken it).
CREATE TABLE star_next AS
SELECT s.page, CASE WHEN s.state = 0 AND w.page IS NULL THEN 1 ELSE s.state END AS state
FROM star s
LEFT JOIN (
  SELECT DISTINCT b.page
  FROM star_before b
  JOIN star t ON t.page = b.earlier
  WHERE t.state = 0
) w ON w.page = s.page;

-- name: star.take
-- Second half: an undecided page with a centre among its earlier neighbours is taken. The driver
-- repeats both halves until `star.undecided` is 0.
CREATE TABLE star_next AS
SELECT s.page, CASE WHEN s.state = 0 AND c.page IS NOT NULL THEN 2 ELSE s.state END AS state
FROM star s
LEFT JOIN (
  SELECT DISTINCT b.page
  FROM star_before b
  JOIN star t ON t.page = b.earlier
  WHERE t.state = 1
) c ON c.page = s.page;

-- name: star.undecided
SELECT COUNT(*) AS undecided FROM star WHERE state = 0;

-- name: star.members
-- Each taken page joins its earliest centre neighbour (always one that comes before it).
CREATE TABLE star_members AS
SELECT page, centre
FROM (
  SELECT b.page, b.earlier AS centre,
         ROW_NUMBER() OVER (PARTITION BY b.page ORDER BY r.deg DESC, b.earlier) AS pick
  FROM star_before b
  JOIN star s ON s.page = b.page
  JOIN star c ON c.page = b.earlier
  JOIN star_rank r ON r.page = b.earlier
  WHERE s.state = 2 AND c.state = 1
) m
WHERE pick = 1;

-- name: labels.star
-- The stars: each centre some page joined, with its members (a centre nobody joined stays alone, as in
-- the workbench). A cluster is labelled by its smallest page id, as components are, so the statements
-- below serve both.
CREATE TABLE labels AS
SELECT page, MIN(page) OVER (PARTITION BY centre) AS label
FROM (
  SELECT page, centre FROM star_members
  UNION ALL
  SELECT DISTINCT centre AS page, centre FROM star_members
) g;

-- name: guard.pairs
-- For components with a chain guard (the workbench's third clustering; MinHash): the verified pairs
-- inside each connected component with Jaccard ≥ the guard's floor, accepted or not, by component.
CREATE TABLE guard_pairs AS
SELECT la.label, s.a, s.b, s.similarity,
       CASE WHEN CAST(s.similarity AS FLOAT) >= CAST(${jaccard} AS FLOAT) THEN 1 ELSE 0 END AS accepted
FROM scored s
JOIN labels la ON la.page = s.a
JOIN labels lb ON lb.page = s.b
WHERE la.label = lb.label AND CAST(s.similarity AS FLOAT) >= CAST(${guard_floor} AS FLOAT);

-- name: guard.kept
-- A component every pair of which is here (most are pairs of pages) passes the guard whole: every
-- merge along its accepted pairs finds all pairs across close. Its labels stand.
CREATE TABLE guard_kept AS
SELECT l.page, l.label
FROM labels l
JOIN (
  SELECT z.label
  FROM (SELECT label, COUNT(*) AS size FROM labels GROUP BY label) z
  JOIN (SELECT label, COUNT(*) AS pairs FROM guard_pairs GROUP BY label) p ON p.label = z.label
  WHERE p.pairs * 2 = z.size * (z.size - 1)
) c ON c.label = l.label;

-- name: guard
-- The pairs of the other components: the driver merges each one's groups from the most similar
-- accepted pair down, two groups only when every pair across them is here (src/core/batch/guarded.ts),
-- and writes `labels` anew from guard_kept and those groups.
CREATE TABLE guard AS
SELECT g.label, g.a, g.b, g.similarity, g.accepted
FROM guard_pairs g
LEFT JOIN (SELECT DISTINCT label FROM guard_kept) k ON k.label = g.label
WHERE k.label IS NULL;

-- name: kept
-- The copy kept in each cluster, by the profile's kept-copy policy (src/core/clusters/kept.ts, the same
-- order the workbench applies): a page of the earlier crawl first (with --against: it is archived
-- already), then the policy's keys over `p` (keep_order: is_canonical; leads: how many other members'
-- canonical URL is this page's, when it is its own; ok; text_length; unknown_time and fetched_at), then
-- the shortest URL, the URL, the capture time. Strings compare byte by byte on both engines. A cluster is
-- named by its kept copy's capture_key (the URL and capture time hashed by the map step: the same name in
-- every run and engine); the reason (keep_reason) is the first key on which the kept copy beats the
-- runner-up (r).
CREATE TABLE kept AS
WITH base AS (
  SELECT l.label, p.id AS page, p.crawl, p.capture_key, p.is_canonical, p.text_length, p.fetched_at, p.url,
         CASE WHEN p.is_canonical = 1 THEN ld.n - 1 ELSE 0 END AS leads,
         CASE WHEN p.status BETWEEN 200 AND 299 THEN 0 ELSE 1 END AS ok,
         CASE WHEN p.fetched_at = '' THEN 1 ELSE 0 END AS unknown_time
  FROM labels l
  JOIN pages p ON p.id = l.page
  JOIN (
    SELECT l2.label, p2.canonical_url, COUNT(*) AS n
    FROM labels l2
    JOIN pages p2 ON p2.id = l2.page
    GROUP BY l2.label, p2.canonical_url
  ) ld ON ld.label = l.label AND ld.canonical_url = p.canonical_url
),
ranked AS (
  SELECT p.*,
         ROW_NUMBER() OVER (
           PARTITION BY p.label
           ORDER BY CASE WHEN p.crawl = 'earlier' THEN 0 ELSE 1 END, ${keep_order}
         ) AS pick
  FROM base p
)
SELECT k.label, k.page, k.capture_key AS cluster, ${keep_reason} AS reason
FROM ranked k
LEFT JOIN ranked r ON r.label = k.label AND r.pick = 2
WHERE k.pick = 1;

-- name: lost
-- Never lose text silently (src/core/clusters/loses-text.ts): for each member but the kept copy, the share
-- of its shingles the kept copy lacks, (|A| − |A ∩ K|) / |A| in double precision (a member without
-- shingles: no row, 0). A share over ${loses_text} flags it `loses_text`; it is removed only when the
-- profile says so (${remove_losing} = 1).
CREATE TABLE lost AS
SELECT l.page, CAST(COUNT(*) - COUNT(sk.page) AS DOUBLE) / COUNT(*) AS share
FROM labels l
JOIN kept k ON k.label = l.label
JOIN shingles sr ON sr.page = l.page
LEFT JOIN shingles sk ON sk.page = k.page AND sk.shingle = sr.shingle
WHERE l.page <> k.page
GROUP BY l.page;

-- name: gone
-- The members removed: every one but the kept copy, less those that lose text unless the profile removes
-- them too. The remove list and the summary's counts read it.
CREATE TABLE gone AS
SELECT l.page, l.label, COALESCE(lo.share, 0) AS share
FROM labels l
JOIN kept k ON k.label = l.label
LEFT JOIN lost lo ON lo.page = l.page
WHERE l.page <> k.page AND (${remove_losing} = 1 OR COALESCE(lo.share, 0) <= ${loses_text});

-- name: clusters
-- One row per page in a cluster; the cluster is named by its kept copy's capture key (kept), `kept`
-- marks the copy the policy keeps and `kept_reason` why (on that row), `crawl` says whether the page is
-- of the crawl joined ('new') or of the earlier one it is joined against ('earlier').
CREATE TABLE clusters AS
SELECT k.cluster AS cluster, p.id AS page, p.url, p.canonical_url, p.host, p.shard, p.offset, s.size AS cluster_size,
       CASE WHEN p.id = k.page THEN TRUE ELSE FALSE END AS kept,
       CASE WHEN p.id = k.page THEN k.reason ELSE '' END AS kept_reason,
       CASE WHEN p.id = k.page THEN NULL ELSE COALESCE(lo.share, 0) END AS lost_share,
       CASE WHEN p.id <> k.page AND COALESCE(lo.share, 0) > ${loses_text} THEN TRUE ELSE FALSE END AS loses_text,
       p.crawl, p.surt, p.canonical_surt
FROM labels l
JOIN pages p ON p.id = l.page
JOIN kept k ON k.label = l.label
LEFT JOIN lost lo ON lo.page = l.page
JOIN (SELECT label, COUNT(*) AS size FROM labels GROUP BY label) s ON s.label = l.label;

-- name: remove
-- The remove list: every page of the crawl in a cluster but the kept one (less those kept for the text
-- they would lose, gone), with the copy it duplicates, its share of text lost and the flag,
-- how it was found (the method and its best verified similarity to a page of the cluster) and what
-- removing saves. Pages of an earlier crawl (--against) are never listed: they are archived already.
CREATE TABLE remove AS
SELECT p.url, p.id AS page, k.cluster AS cluster, kp.url AS kept_url, k.page AS kept_page, k.reason AS kept_reason,
       g.share AS lost_share, CASE WHEN g.share > ${loses_text} THEN TRUE ELSE FALSE END AS loses_text,
       '${method}' AS method, e.similarity, p.canonical_url, p.bytes, p.surt, p.canonical_surt
FROM gone g
JOIN labels l ON l.page = g.page
JOIN kept k ON k.label = l.label
JOIN pages p ON p.id = l.page
JOIN pages kp ON kp.id = k.page
JOIN (
  SELECT page, MAX(similarity) AS similarity
  FROM (SELECT a AS page, similarity FROM edges UNION ALL SELECT b AS page, similarity FROM edges) x
  GROUP BY page
) e ON e.page = l.page
WHERE p.crawl = 'new';

-- name: pairs
-- The verified pairs with both URLs: what a sample for labelling is drawn from.
CREATE TABLE pairs AS
SELECT e.a, e.b, e.similarity, pa.url AS url_a, pb.url AS url_b, k.cluster AS cluster
FROM edges e
JOIN pages pa ON pa.id = e.a
JOIN pages pb ON pb.id = e.b
JOIN labels l ON l.page = e.a
JOIN kept k ON k.label = l.label;

-- name: summary
-- Per host and overall (the row whose host is NULL), in the words archivists use: total URLs (pages),
-- duplicate URLs (duplicates_removed: the members removed, gone), unique payloads (distinct payload
-- digests; a page without one counts as its own), bytes and bytes conserved by removing the
-- duplicates, the captures folded into their URL's earliest capture (stands), and the members flagged
-- loses_text (removed or not, lost). A cluster that spans hosts counts once per host it touches. Pages of the
-- crawl only (not of an earlier one it is joined against). Every count is a BIGINT on both engines
-- (DuckDB would make a SUM a 128-bit integer).
CREATE TABLE summary AS
SELECT p.host AS host,
       COUNT(*) AS pages,
       COUNT(l.page) AS pages_in_clusters,
       COUNT(DISTINCT l.label) AS clusters,
       CAST(SUM(CASE WHEN g.page IS NOT NULL THEN 1 ELSE 0 END) AS BIGINT) AS duplicates_removed,
       COUNT(DISTINCT CASE WHEN p.digest = '' THEN CONCAT('page:', CAST(p.id AS STRING)) ELSE p.digest END) AS unique_payloads,
       CAST(SUM(p.bytes) AS BIGINT) AS bytes,
       CAST(SUM(CASE WHEN g.page IS NOT NULL THEN p.bytes ELSE 0 END) AS BIGINT) AS bytes_conserved,
       CAST(SUM(CASE WHEN st.page IS NULL THEN 1 ELSE 0 END) AS BIGINT) AS captures_folded,
       CAST(SUM(CASE WHEN lo.share > ${loses_text} THEN 1 ELSE 0 END) AS BIGINT) AS loses_text
FROM pages p
LEFT JOIN stands st ON st.page = p.id
LEFT JOIN labels l ON l.page = p.id
LEFT JOIN gone g ON g.page = p.id
LEFT JOIN lost lo ON lo.page = p.id
WHERE p.crawl = 'new'
GROUP BY GROUPING SETS ((p.host), ());

-- name: revisits
-- With --against: each page of the crawl whose cluster holds a page of the earlier crawl is a revisit of
-- the earlier copy kept there; `kind` says how alike: the same payload digest, the same text
-- (fingerprint), or near (a verified similarity at the profile's threshold, through the cluster).
CREATE TABLE revisits AS
SELECT p.url, p.id AS page, k.cluster AS cluster, kp.url AS earlier_url, kp.id AS earlier_page,
       kp.fetched_at AS earlier_fetched_at,
       CASE WHEN p.digest <> '' AND p.digest = kp.digest THEN 'identical-payload'
            WHEN p.fingerprint = kp.fingerprint THEN 'identical-text'
            ELSE 'near' END AS kind,
       '${method}' AS method
FROM labels l
JOIN kept k ON k.label = l.label
JOIN pages p ON p.id = l.page
JOIN pages kp ON kp.id = k.page
WHERE p.crawl = 'new' AND kp.crawl = 'earlier';

-- name: overrides.pages
-- The analyst's decisions (the profile's overrides, clusters/override-urls.ts) placed on this crawl's
-- pages: the driver fills override_urls (decision k, side 0 or 1, the URL normalised and its canonical
-- form under the profile's rules); a URL names the page of its normalised URL, else one of its
-- canonical URL — the smallest id, as the workbench takes the first page in id order.
CREATE TABLE override_pages AS
SELECT u.k, u.side, COALESCE(MIN(p1.id), MIN(p2.id)) AS page
FROM override_urls u
LEFT JOIN (SELECT p.id, p.norm_url FROM pages p JOIN stands s ON s.page = p.id WHERE p.crawl = 'new') p1
  ON p1.norm_url = u.norm
LEFT JOIN (SELECT p.id, p.canonical_url FROM pages p JOIN stands s ON s.page = p.id WHERE p.crawl = 'new') p2
  ON p2.canonical_url = u.canon
GROUP BY u.k, u.side;

-- name: overrides.members
-- Every page of a cluster a decision touches, with its cluster's label.
CREATE TABLE override_members AS
SELECT l.page, l.label
FROM labels l
WHERE l.label IN (SELECT l2.label FROM labels l2 JOIN override_pages o ON o.page = l2.page);

-- name: overrides.pairs
-- The accepted pairs among those pages: what the driver regroups them by (clusters/overrides.ts).
SELECT e.a, e.b, e.similarity
FROM edges e
JOIN override_members ma ON ma.page = e.a
JOIN override_members mb ON mb.page = e.b;

-- name: overrides.rest
-- labels_next starts as the clusters no decision touches; the driver appends the regrouped ones.
CREATE TABLE labels_next AS
SELECT l.page, l.label
FROM labels l
LEFT JOIN override_members m ON m.page = l.page
WHERE m.page IS NULL;
