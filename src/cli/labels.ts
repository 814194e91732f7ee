import { writeFileSync } from 'node:fs';
import type { EngineResult } from '../core/candidates/engine';
import { accepts, DEFAULT_THRESHOLDS, METHOD_LABELS, type MethodId } from '../core/candidates/methods';
import { ThresholdCurve, breakEven } from '../core/eval/curves';
import { precisionRecall, type Estimate, type LabelValue } from '../core/eval/estimators';
import { normaliseUrl } from '../core/url/normalize';

interface LabelRow {
  urlA: string;
  urlB: string;
  label: LabelValue;
  pi: number;
}

/** Labels exported by the workbench (JSON with url_a/url_b, or CSV with url_a,url_b,label,pi). */
export function parseLabels(text: string, name: string): LabelRow[] {
  if (name.toLowerCase().endsWith('.json')) {
    const rows = JSON.parse(text) as Record<string, unknown>[];
    return rows.map((r) => ({
      urlA: String(r.url_a ?? ''),
      urlB: String(r.url_b ?? ''),
      label: r.label as LabelValue,
      pi: Number(r.pi ?? 1),
    }));
  }
  const [head, ...lines] = text.trim().split('\n');
  const cols = head.split(',').map((c) => c.trim());
  return lines.map((l) => {
    const v = l.split(',');
    const get = (c: string) => v[cols.indexOf(c)]?.trim() ?? '';
    return {
      urlA: get('url_a'),
      urlB: get('url_b'),
      label: get('label') as LabelValue,
      pi: Number(get('pi') || 1),
    };
  });
}

/**
 * Precision and recall per method at the default thresholds from hand labels (design-weighted, 95%
 * Wilson intervals), and the RP curve (C = 1, D varying) from the labels, written as CSV.
 */
export function labelReport(
  r: EngineResult,
  urls: string[],
  text: string,
  name: string,
  csvOut: string,
): { text: string; json: unknown } {
  const index = new Map(urls.map((u, i) => [normaliseUrl(u).href, i]));
  const pairIndex = new Map<number, number>();
  for (let k = 0; k < r.pairs.count; k++) pairIndex.set(r.pairs.a[k] * 2 ** 21 + r.pairs.b[k], k);
  const rows = parseLabels(text, name)
    .filter((l) => (l.label === 'dup' || l.label === 'not') && Number.isFinite(l.pi) && l.pi > 0)
    .map((l) => {
      const i = index.get(normaliseUrl(l.urlA).href);
      const j = index.get(normaliseUrl(l.urlB).href);
      const k =
        i === undefined || j === undefined
          ? undefined
          : pairIndex.get(Math.min(i, j) * 2 ** 21 + Math.max(i, j));
      return { ...l, k };
    });
  const fmt = (e: Estimate) =>
    Number.isFinite(e.value)
      ? `${(100 * e.value).toFixed(1)}% [${(100 * e.lo).toFixed(1)}–${(100 * e.hi).toFixed(1)}]`
      : '–';
  const lines = [
    `labels      ${rows.length} usable (${rows.filter((x) => x.k === undefined).length} not among the candidate pairs: never accepted)`,
  ];
  const methods: Record<string, unknown> = {};
  for (const m of Object.keys(METHOD_LABELS) as MethodId[]) {
    const pr = precisionRecall(
      rows.map((x) => ({
        label: x.label,
        pi: x.pi,
        predicted: x.k !== undefined && accepts(r.pairs, m, DEFAULT_THRESHOLDS, x.k),
      })),
    );
    lines.push(`  ${METHOD_LABELS[m].padEnd(34)} precision ${fmt(pr.precision)}  recall ${fmt(pr.recall)}`);
    methods[m] = pr;
  }
  // The RP curve from the labels: score ‖ΔR‖∞, truth weights 1/π; unlabelled pairs weigh nothing.
  const dup = new Float64Array(r.pairs.count);
  const not = new Float64Array(r.pairs.count);
  let missed = 0;
  for (const x of rows) {
    if (x.k === undefined) {
      if (x.label === 'dup') missed += 1 / x.pi;
      continue;
    }
    if (x.label === 'dup') dup[x.k] += 1 / x.pi;
    else not[x.k] += 1 / x.pi;
  }
  const curve = new ThresholdCurve(r.pairs.dR, dup, not, missed);
  const pts = curve.sample(0, 0.1, 100).filter((p) => p.threshold > 0);
  const be = breakEven(pts);
  lines.push(
    `  RP only (C = 1): break-even ${(100 * be.value).toFixed(1)}% at D = ${be.threshold.toFixed(3)}; curve written to ${csvOut}`,
  );
  writeFileSync(
    csvOut,
    ['D,precision,recall', ...pts.map((p) => `${p.threshold},${p.precision},${p.recall}`)].join('\n') + '\n',
  );
  // RP + HM: for D on a grid, the C curve (score ‖ΔX‖∞ among pairs inside the D cube); the best break-even.
  let bestHm = { value: 0, C: 0, D: 0 };
  for (let i = 1; i <= 40; i++) {
    const D = (0.1 * i) / 40;
    const score = Float64Array.from({ length: r.pairs.count }, (_, k) =>
      r.pairs.dR[k] < D ? r.pairs.dX[k] : Infinity,
    );
    const c = new ThresholdCurve(score, dup, not, missed);
    const b = breakEven(c.sample(0, 1, 100).filter((p) => p.threshold > 0));
    if (b.value > bestHm.value) bestHm = { value: b.value, C: b.threshold, D };
  }
  lines.push(
    `  RP + HM: best break-even ${(100 * bestHm.value).toFixed(1)}% at D = ${bestHm.D.toFixed(3)}, C = ${bestHm.C.toFixed(3)}`,
  );
  return {
    text: lines.join('\n'),
    json: { labels: rows.length, methods, rpBreakEven: be, rpHmBreakEven: bestHm },
  };
}
