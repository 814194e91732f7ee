import { useBatch } from '../../state/batch';
import { FileButton } from '../FileButton';

/** "Open batch result…": the result folder of `npm run batch`, or its Parquet files, picked from disk. */
export function OpenBatchResult() {
  const openFiles = useBatch((s) => s.openFiles);
  const reading = useBatch((s) => s.reading);
  return (
    <div className="actions">
      <FileButton folder testId="batch-folder-input" disabled={reading} onFiles={(l) => void openFiles(l)}>
        Open batch result…
      </FileButton>
      <FileButton
        className="link"
        multiple
        accept=".parquet"
        testId="batch-files-input"
        disabled={reading}
        onFiles={(l) => void openFiles(l)}
      >
        or its Parquet files
      </FileButton>
    </div>
  );
}
