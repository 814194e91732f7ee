/**
 * The three panes the product is about. Until their engines exist they say plainly what will fill them.
 */
export function AnalysisPanes() {
  return (
    <section className="panes" aria-label="Analysis">
      <section className="pane" aria-label="Duplicate clusters">
        <h2>Duplicate clusters</h2>
        <p className="empty">
          No signatures computed yet. Clusters of exact and near replicas will appear here once signatures
          (exact fingerprint, RP/HM, feature code + length, MinHash, SimHash) are computed for this dataset.
        </p>
      </section>
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
