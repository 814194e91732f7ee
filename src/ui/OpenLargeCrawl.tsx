import { useState } from 'react';
import { useDatasets } from '../state/datasets';
import { FileButton } from './FileButton';

/**
 * Open a crawl too large to read whole: its WARC files and its index (CDX/CDXJ) are chosen together, a
 * designed sample of the size asked for is read by byte ranges (workers/sample-read.ts), and the
 * whole crawl's figures are then estimated from it (the sample's estimates in the clusters view).
 */
export function OpenLargeCrawl() {
  const ingestFiles = useDatasets((s) => s.ingestFiles);
  const job = useDatasets((s) => s.job !== null);
  const [open, setOpen] = useState(false);
  const [budget, setBudget] = useState(20000);
  const [seed, setSeed] = useState(1);
  const valid = Number.isInteger(budget) && budget >= 10 && Number.isInteger(seed) && seed >= 0;
  return (
    <div className="large-crawl">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} disabled={job}>
        Open a large crawl…
      </button>
      {open && (
        <div className="large-crawl-form" role="group" aria-label="Sample of a large crawl">
          <p className="hint">
            Choose the crawl’s WARC files with its index (CDX or CDXJ), or a WACZ: a sample of whole sites and
            their mirrors is read by byte ranges, and the whole crawl’s duplicate rate is estimated from it.
            Without an index one is built first, reading every file once.
          </p>
          <label>
            Sample size (pages){' '}
            <input
              type="number"
              min={10}
              step={1000}
              value={budget}
              data-testid="sample-budget"
              onChange={(e) => setBudget(Number(e.target.value))}
            />
          </label>
          <label>
            Seed{' '}
            <input
              type="number"
              min={0}
              value={seed}
              data-testid="sample-seed"
              onChange={(e) => setSeed(Number(e.target.value))}
            />
          </label>
          <FileButton
            multiple
            testId="sample-input"
            disabled={!valid || job}
            onFiles={(files) => {
              setOpen(false);
              const crawl = files.find((f) => !/\.cdxj?$/i.test(f.name)) ?? files[0];
              void ingestFiles(files, `Sample of ${crawl.name}${files.length > 2 ? ' and more' : ''}`, {
                sample: { budget, seed },
              });
            }}
          >
            Choose WARC files and index…
          </FileButton>
          {!valid && <p className="error">A sample size of 10 pages or more and a whole-number seed.</p>}
        </div>
      )}
    </div>
  );
}
