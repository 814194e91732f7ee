import {
  DEFAULT_THRESHOLDS,
  METHOD_LABELS,
  RANGES,
  type MethodId,
  type Thresholds,
} from '../core/candidates/methods';
import { useAnalysis, type ClusterMode } from './analysis';
import { CLUSTER_MODE_LABELS } from '../core/clusters/view';
import { useDatasets } from './datasets';
import { useDust } from './dust';
import { isPaneId, useLayout, type PaneId } from './layout';

/**
 * The view lives in the URL (dataset, method, thresholds, clustering), so a view can be shared and a
 * reload restores it: read once at start, written (replaceState) on every change (a slider's at most every 250 ms).
 */
export interface UrlView {
  dataset: number | null;
  /** Selected cluster (its id: the seq of the page it is known by) and DUST rule (id). */
  cluster?: number | null;
  rule?: number | null;
  /** The enlarged analysis pane, if any. */
  pane?: PaneId | null;
  method: MethodId | null;
  mode: ClusterMode | null;
  thresholds: Partial<Thresholds>;
}

const KEYS: [keyof Thresholds, string][] = [
  ['C', 'C'],
  ['D', 'D'],
  ['a', 'a'],
  ['jaccard', 'j'],
  ['hamming', 'h'],
];

export function parseView(search: string): UrlView {
  const q = new URLSearchParams(search);
  const num = (k: string) => {
    const v = q.get(k);
    return v === null || v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v);
  };
  const thresholds: Partial<Thresholds> = {};
  for (const [key, short] of KEYS) {
    const v = num(short);
    const range = RANGES[key as keyof typeof RANGES] as readonly [number, number] | undefined;
    if (v !== undefined && (!range || (v >= range[0] && v <= range[1])))
      (thresholds as Record<string, number>)[key] = v;
  }
  if (q.get('fl') === '0') thresholds.fcLengthCheck = false;
  const m = q.get('m');
  const mode = q.get('mode');
  const pane = q.get('pane');
  return {
    ...(num('cl') !== undefined ? { cluster: num('cl') } : {}),
    ...(num('rule') !== undefined ? { rule: num('rule') } : {}),
    ...(isPaneId(pane) ? { pane } : {}),
    dataset: num('ds') ?? null,
    method: m && m in METHOD_LABELS ? (m as MethodId) : null,
    mode: mode !== null && mode in CLUSTER_MODE_LABELS ? (mode as ClusterMode) : null,
    thresholds,
  };
}

export function formatView(v: {
  dataset: number | null;
  method: MethodId;
  mode: ClusterMode;
  thresholds: Thresholds;
  cluster?: number | null;
  rule?: number | null;
  pane?: PaneId | null;
}): string {
  const q = new URLSearchParams();
  if (v.dataset !== null) q.set('ds', String(v.dataset));
  if (v.cluster !== undefined && v.cluster !== null) q.set('cl', String(v.cluster));
  if (v.rule !== undefined && v.rule !== null) q.set('rule', String(v.rule));
  if (v.pane) q.set('pane', v.pane);
  q.set('m', v.method);
  // Always written: a shared link keeps its clustering when the default changes.
  q.set('mode', v.mode);
  for (const [key, short] of KEYS)
    if (v.thresholds[key] !== DEFAULT_THRESHOLDS[key]) q.set(short, String(v.thresholds[key]));
  if (!v.thresholds.fcLengthCheck) q.set('fl', '0');
  return `?${q.toString()}`;
}

/** Apply the URL's view to the stores, then keep the URL in step with them. Returns an unsubscribe. */
export function syncViewWithUrl(): () => void {
  const v = parseView(window.location.search);
  const a = useAnalysis.getState();
  useAnalysis.setState({
    method: v.method ?? a.method,
    mode: v.mode ?? a.mode,
    thresholds: { ...a.thresholds, ...v.thresholds },
  });
  if (v.dataset !== null) useDatasets.setState({ selectedId: v.dataset });
  if (v.cluster !== undefined) useAnalysis.setState({ pendingClusterId: v.cluster });
  if (v.rule !== undefined) useDust.setState({ pendingRule: v.rule });
  if (v.pane) useLayout.setState({ enlarged: v.pane });
  const write = () => {
    const s = useAnalysis.getState();
    const d = useDust.getState();
    const url = formatView({
      dataset: useDatasets.getState().selectedId,
      method: s.method,
      mode: s.mode,
      thresholds: s.thresholds,
      // While a selection from the URL waits for its data, it stays in the URL.
      cluster: s.selectedClusterId ?? s.pendingClusterId,
      rule: d.selectedRule ?? d.pendingRule,
      pane: useLayout.getState().enlarged,
    });
    if (url !== window.location.search) window.history.replaceState(null, '', url);
  };
  // A dragged slider changes the thresholds on every input event; replaceState each time cost a few ms
  // of every move (and browsers rate-limit it). Threshold changes are written at most every 250 ms, the
  // last one always; any other change writes at once (with the latest thresholds). So the URL lags a
  // drag by at most 250 ms.
  let pending: ReturnType<typeof setTimeout> | null = null;
  const writeNow = () => {
    if (pending !== null) clearTimeout(pending);
    pending = null;
    write();
  };
  const u1 = useAnalysis.subscribe((s, prev) => {
    if (s.thresholds === prev.thresholds) writeNow();
    else pending ??= setTimeout(writeNow, 250);
  });
  const u2 = useDatasets.subscribe(write);
  const u3 = useDust.subscribe(write);
  const u4 = useLayout.subscribe(write);
  return () => {
    if (pending !== null) clearTimeout(pending);
    u1();
    u2();
    u3();
    u4();
  };
}
