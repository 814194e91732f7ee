/**
 * The join step's SQL file, read as named statements: a block starts at a `-- name: NAME` line and
 * runs to the next one; `${var}` is replaced by the driver's value (spark-sql's own substitution
 * syntax, so the same file runs there). Pure: the driver reads the file and runs the text.
 */
export function parseNamedSql(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let name: string | null = null;
  let body: string[] = [];
  const close = () => {
    if (name === null) return;
    const sql = body
      .filter((l) => !/^\s*--/.test(l))
      .join('\n')
      .trim()
      .replace(/;\s*$/, '');
    if (out.has(name)) throw new Error(`SQL statement "${name}" is defined twice`);
    out.set(name, sql);
  };
  for (const line of text.split('\n')) {
    const m = /^--\s*name:\s*(\S+)\s*$/.exec(line);
    if (m) {
      close();
      name = m[1];
      body = [];
    } else body.push(line);
  }
  close();
  return out;
}

/** Replace each `${var}`; a variable the statement names but the driver lacks is an error. */
export function substitute(sql: string, vars: Record<string, string | number>): string {
  return sql.replace(/\$\{(\w+)\}/g, (_, k: string) => {
    if (!(k in vars)) throw new Error(`SQL variable \${${k}} has no value`);
    return String(vars[k]);
  });
}
