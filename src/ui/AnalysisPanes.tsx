import { ClustersPane } from './clusters/ClustersPane';

/** The three panes the product is about, side by side. */
export function AnalysisPanes() {
  return (
    <section className="panes" aria-label="Analysis">
      <ClustersPane />
      <section className="pane" aria-label="Precision and recall">
        <h2>Precision–recall</h2>
        <p className="empty">
          No labelled pairs yet. Curves over the C and D thresholds will appear here once pairs are labelled
          (or an oracle is chosen) for this dataset.
        </p>
      </section>
      <section className="pane" aria-label="DUST rules">
        <h2>DUST rules</h2>
        <p className="empty">
          No rules mined yet. DustBuster’s rules (e.g. <code>story?id=</code> → <code>story_</code>), their
          support and the URLs each would save will appear here once rules are mined from this dataset’s URL
          list.
        </p>
      </section>
    </section>
  );
}
