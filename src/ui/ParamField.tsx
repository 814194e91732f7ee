import { useState, type ReactNode } from 'react';

/** How a parameter is edited: a number box, a checkbox, or a select over `options`. */
export type ParamKind = 'number' | 'check' | 'select';

/**
 * One parameter of a parameters panel (signatures, DustBuster): its name, its meaning and default on
 * hover, and its control. An emptied number box changes nothing until a number is typed, so a
 * half-typed value never reaches the store.
 */
export function ParamField({
  label,
  help,
  kind,
  value,
  options = [],
  step = 1,
  onChange,
}: {
  label: string;
  help: string;
  kind: ParamKind;
  value: number | string | boolean;
  options?: readonly string[];
  step?: number;
  onChange(v: string | boolean): void;
}) {
  return (
    <label title={help}>
      <span>{label}</span>
      {kind === 'check' ? (
        <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
      ) : kind === 'select' ? (
        <select value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {options.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      ) : (
        <input
          type="number"
          step={step}
          value={String(value)}
          onChange={(e) => e.target.value !== '' && onChange(e.target.value)}
        />
      )}
    </label>
  );
}

/**
 * A parameters panel: folded until opened, and held open while the parameters differ from those of
 * the shown result (`stale`, said in the summary); the fields in a grid, then a note and Defaults.
 */
export function ParamsDetails({
  title,
  stale,
  staleNote,
  note,
  onDefaults,
  children,
}: {
  title: string;
  stale: boolean;
  /** Said after the title while stale: "changed: mine again to apply". */
  staleNote: string;
  note: ReactNode;
  onDefaults(): void;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <details className="params" open={open || stale} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>
        {title}
        {stale ? ` — ${staleNote}` : ''}
      </summary>
      <div className="param-grid">{children}</div>
      <p className="meta">
        {note}{' '}
        <button type="button" onClick={onDefaults}>
          Defaults
        </button>
      </p>
    </details>
  );
}
