import { ClustersPane } from './clusters/ClustersPane';
import { RulesPane } from './dust/RulesPane';

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
      <RulesPane />
    </section>
  );
}
