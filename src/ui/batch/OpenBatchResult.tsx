import { useRef } from 'react';
import { useBatch } from '../../state/batch';

/** "Open batch result…": the result folder of `npm run batch`, or its Parquet files, picked from disk. */
export function OpenBatchResult() {
  const openFiles = useBatch((s) => s.openFiles);
  const reading = useBatch((s) => s.reading);
  const folder = useRef<HTMLInputElement>(null);
  const files = useRef<HTMLInputElement>(null);
  const pick = (input: HTMLInputElement) => {
    const list = Array.from(input.files ?? []);
    input.value = '';
    if (list.length) void openFiles(list);
  };
  return (
    <div className="actions">
      <button type="button" onClick={() => folder.current?.click()} disabled={reading}>
        Open batch result…
      </button>
      <button type="button" className="link" onClick={() => files.current?.click()} disabled={reading}>
        or its Parquet files
      </button>
      <input
        ref={folder}
        type="file"
        hidden
        data-testid="batch-folder-input"
        {...{ webkitdirectory: '' }}
        onChange={(e) => pick(e.target)}
      />
      <input
        ref={files}
        type="file"
        multiple
        hidden
        accept=".parquet"
        data-testid="batch-files-input"
        onChange={(e) => pick(e.target)}
      />
    </div>
  );
}
