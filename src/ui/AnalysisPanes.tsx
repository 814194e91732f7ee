import { ClustersPane } from './clusters/ClustersPane';
import { RulesPane } from './dust/RulesPane';
import { PrPane } from './pr/PrPane';

/** The three panes the product is about, side by side. */
export function AnalysisPanes() {
  return (
    <section className="panes" aria-label="Analysis">
      <ClustersPane />
      <PrPane />
      <RulesPane />
    </section>
  );
}
