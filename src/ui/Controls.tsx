/**
 * The form controls every pane's filter bar and header uses, so a select or a search box looks and reads
 * the same everywhere (an accessible name on each; the visible text of an option may differ from its value).
 */

/**
 * A select over `options`. With `all`, a first option of value '' stands for "no filter" (its text is
 * `all`), so T must admit ''. `text` spells an option (default: the value itself).
 */
export function Choice<T extends string>({
  label,
  value,
  options,
  text = (v) => v,
  all,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly Exclude<T, ''>[];
  text?: (v: Exclude<T, ''>) => string;
  all?: string;
  onChange(v: T): void;
}) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value as T)}>
      {all !== undefined && <option value="">{all}</option>}
      {options.map((o) => (
        <option key={o} value={o}>
          {text(o)}
        </option>
      ))}
    </select>
  );
}

/** A select over the keys of `labels` (a method's or a mode's words by its id), each shown as its label. */
export function LabelledChoice<T extends string>({
  labels,
  ...rest
}: {
  label: string;
  value: T;
  labels: Record<Exclude<T, ''>, string>;
  onChange(v: T): void;
}) {
  return (
    <Choice
      {...rest}
      options={Object.keys(labels) as Exclude<T, ''>[]}
      text={(v) => labels[v as Exclude<T, ''>]}
    />
  );
}

/** A search box filtering a list as one types. */
export function SearchBox({
  label,
  placeholder = label,
  value,
  onChange,
}: {
  label: string;
  placeholder?: string;
  value: string;
  onChange(v: string): void;
}) {
  return (
    <input
      type="search"
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
