import { useRef } from 'react';
import { useBatch } from '../../state/batch';
import { HiddenFileInput } from '../HiddenFileInput';

/** "Open batch result…": the result folder of `npm run batch`, or its Parquet files, picked from disk. */
export function OpenBatchResult() {
  const openFiles = useBatch((s) => s.openFiles);
  const reading = useBatch((s) => s.reading);
  const folder = useRef<HTMLInputElement>(null);
  const files = useRef<HTMLInputElement>(null);
  return (
    <div className="actions">
      <button type="button" onClick={() => folder.current?.click()} disabled={reading}>
        Open batch result…
      </button>
      <button type="button" className="link" onClick={() => files.current?.click()} disabled={reading}>
        or its Parquet files
      </button>
      <HiddenFileInput
        ref={folder}
        folder
        testId="batch-folder-input"
        onFiles={(list) => void openFiles(list)}
      />
      <HiddenFileInput
        ref={files}
        multiple
        accept=".parquet"
        testId="batch-files-input"
        onFiles={(list) => void openFiles(list)}
      />
    </div>
  );
}
