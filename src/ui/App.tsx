import { useEffect } from 'react';
import { useOverrides } from '../state/overrides';
import { DecisionsPane } from './clusters/DecisionsPane';
import { useDatasets } from '../state/datasets';
import { usePages } from '../state/pages';
import { DropZone } from './DropZone';
import { IngestPanel } from './IngestPanel';
import { Notices } from './Notices';
import { PageDetail } from './PageDetail';
import { PagesTable } from './PagesTable';
import { AnalysisPanes } from './AnalysisPanes';
import { Sidebar } from './Sidebar';
import { DatasetHeader } from './DatasetHeader';
import { ClusterDetail } from './clusters/ClusterDetail';
import { RuleDetail } from './dust/RuleDetail';
import { LabelView } from './labels/LabelView';
import { useLabels } from '../state/labels';
import { syncViewWithUrl } from '../state/url-sync';
import { useDust } from '../state/dust';
import { useAnalysis } from '../state/analysis';
import { BatchResultView } from './batch/BatchResultView';
import { selectedDataset } from '../state/selectors';

export function App() {
  const refresh = useDatasets((s) => s.refresh);
  const selectedId = useDatasets((s) => s.selectedId);
  const datasets = useDatasets((s) => s.datasets);
  // Whether a read runs, not the job itself: its progress changes ten times a second, and only the panel
  // shows it (the whole workbench re-rendered with each, on the cores the read needs).
  const jobRuns = useDatasets((s) => s.job !== null);
  const load = usePages((s) => s.load);
  const loadAnalysis = useAnalysis((s) => s.load);
  const loadDust = useDust((s) => s.load);
  const loadLabels = useLabels((s) => s.load);
  const loadOverrides = useOverrides((s) => s.load);
  const selected = selectedDataset({ datasets, selectedId }) ?? null;

  useEffect(() => syncViewWithUrl(), []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  // Reload the pages when the selection changes or the selected dataset's page count does. Not while
  // the dataset is being read: its row counts the pages stored every second, and loading them all
  // each time took the main thread ~5 CPU-seconds of a 20 s read of a 210 MB file, growing with the
  // pages stored, on the two cores the ingest workers need. They are loaded once the read ends.
  const status = selected?.status;
  const reading = status === 'ingesting';
  const pageCount = reading ? -1 : (selected?.pages ?? 0);
  useEffect(() => {
    void load(reading ? null : selectedId);
  }, [load, selectedId, pageCount, reading]);
  const ready =
    status === 'ready' || status === 'partial' || status === 'cancelled' || status === 'interrupted';
  useEffect(() => {
    void loadAnalysis(ready ? selectedId : null);
    void loadDust(ready ? selectedId : null);
    void loadLabels(ready ? selectedId : null);
    void loadOverrides(ready ? selectedId : null);
  }, [loadAnalysis, loadDust, loadLabels, loadOverrides, selectedId, ready]);

  return (
    <DropZone>
      <div className="app">
        <Sidebar />
        <main className="main">
          <Notices />
          {jobRuns && <IngestPanel />}
          <BatchResultView />
          {selected ? (
            <>
              <DatasetHeader dataset={selected} />
              {reading ? (
                <p className="empty being-read" data-testid="being-read">
                  This dataset is being read. Its pages, duplicate clusters and DUST rules come here when the
                  read ends; the count above is of the pages stored so far.
                </p>
              ) : selected.pages === 0 ? (
                // Nothing stored (a read interrupted or cancelled before its first page): no job to offer.
                <p className="empty no-pages" data-testid="no-pages">
                  No page of this dataset was stored, so there is nothing to compute signatures or mine DUST
                  rules over. Drop the file again to read it.
                </p>
              ) : (
                <>
                  <AnalysisPanes />
                  <ClusterDetail />
                  <RuleDetail />
                  <LabelView />
                  <DecisionsPane />
                  <section className="pages-area" aria-label="Pages">
                    <PagesTable />
                    <PageDetail />
                  </section>
                </>
              )}
            </>
          ) : (
            !jobRuns && (
              <div className="welcome">
                <h1>Dedup Workbench</h1>
                <p>
                  Drop a crawl file anywhere in this window — WARC (plain, .gz or .zst), WACZ, ARC, WET, a
                  CDX/CDXJ index, a Heritrix crawl.log, an access log (Common or Combined Log Format), JSONL,
                  CSV/TSV, Parquet or a list of URLs; several files or a folder are one crawl — or use “Open
                  sample crawl” on the left. Each format and what is read of it: docs/formats.md.
                </p>
                <p>
                  It is read in the background and kept in this browser, so a reload loses nothing. Nothing is
                  uploaded.
                </p>
                <p>
                  A crawl too large to read whole (dozens of WARC files, a big WACZ): “Open a large crawl…”
                  reads a designed sample of its sites by byte ranges and estimates the whole crawl from it.
                </p>
              </div>
            )
          )}
        </main>
      </div>
    </DropZone>
  );
}
