import { useLayout } from '../state/layout';
import { ClustersPane } from './clusters/ClustersPane';
import { PaneFrame } from './PaneFrame';
import { RulesPane } from './dust/RulesPane';
import { PrPane } from './pr/PrPane';

/**
 * The three panes the product is about. They sit in a responsive grid (styles.css, "Analysis panes"):
 * three columns when the main area is wide, else clusters and precision–recall side by side over the
 * DUST rules at full width; any one can be enlarged to the whole main area (kept in the URL as `pane=`).
 */
export function AnalysisPanes() {
  const enlarged = useLayout((s) => s.enlarged);

  return (
    <section className={`panes${enlarged ? ' panes-enlarged' : ''}`} aria-label="Analysis">
      <PaneFrame id="clusters" title="Duplicate clusters">
        <ClustersPane />
      </PaneFrame>
      <PaneFrame id="pr" title="Precision–recall">
        <PrPane />
      </PaneFrame>
      <PaneFrame id="dust" title="DUST rules">
        <RulesPane />
      </PaneFrame>
    </section>
  );
}
