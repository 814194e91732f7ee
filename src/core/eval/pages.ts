/**
 * Page-level measures of the near-replica paper (§3): recall = share of the reference pages (pages
 * known to have a replica) that the method returns, i.e. that fall in some cluster; precision = share
 * of the returned pages that really have a replica, judged by the oracle: a page has a replica when at
 * least one of its candidate pairs has oracle similarity ≥ τ (or a 'dup' hand label).
 */
export interface PageLevel {
  recall: number;
  precision: number;
  references: number;
  returned: number;
}

export function pageLevel(
  returned: ReadonlySet<number>,
  references: ReadonlySet<number>,
  hasReplica: (page: number) => boolean,
): PageLevel {
  let found = 0;
  for (const r of references) if (returned.has(r)) found++;
  let good = 0;
  for (const p of returned) if (hasReplica(p)) good++;
  return {
    recall: references.size ? found / references.size : NaN,
    precision: returned.size ? good / returned.size : NaN,
    references: references.size,
    returned: returned.size,
  };
}

/** Pages with at least one candidate pair whose score is ≥ tau (the oracle's view of "has a replica"). */
export function pagesWithReplica(
  n: number,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  score: ArrayLike<number>,
  tau: number,
): Uint8Array {
  const out = new Uint8Array(n);
  for (let k = 0; k < a.length; k++) {
    if (score[k] >= tau) {
      out[a[k]] = 1;
      out[b[k]] = 1;
    }
  }
  return out;
}
