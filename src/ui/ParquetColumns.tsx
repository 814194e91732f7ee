import { useState } from 'react';
import type { ChosenColumns } from '../core/types';

/**
 * A Parquet table whose documents' columns were not found by name: the analyst picks the URL column,
 * the text column and whether it holds text or HTML, and the files are read again with them.
 */
export function ParquetColumns({
  columns,
  onRead,
}: {
  columns: string[];
  onRead: (chosen: ChosenColumns) => void;
}) {
  const [url, setUrl] = useState(columns[0] ?? '');
  const [body, setBody] = useState(columns[1] ?? columns[0] ?? '');
  const [kind, setKind] = useState<ChosenColumns['kind']>('text');
  return (
    <form
      className="parquet-columns"
      aria-label="Parquet columns"
      onSubmit={(e) => {
        e.preventDefault();
        onRead({ url, body, kind });
      }}
    >
      <label>
        URL (or id){' '}
        <select aria-label="URL column" value={url} onChange={(e) => setUrl(e.target.value)}>
          {columns.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>{' '}
      <label>
        document{' '}
        <select aria-label="Document column" value={body} onChange={(e) => setBody(e.target.value)}>
          {columns.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>{' '}
      <label>
        as{' '}
        <select
          aria-label="Document kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as ChosenColumns['kind'])}
        >
          <option value="text">text</option>
          <option value="html">HTML</option>
        </select>
      </label>{' '}
      <button type="submit" disabled={url === body}>
        Read with these columns
      </button>
    </form>
  );
}
