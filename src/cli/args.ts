/**
 * Command-line arguments for every command under src/cli, on `node:util` parseArgs.
 *
 * A command is described once, as a table (`CommandSpec`): its positionals and its options, each option
 * with its type, default and help line. The same table gives the parser, the defaults and the `--help`
 * text, so adding an option is one entry in the table and nothing else.
 *
 * parseArgs runs non-strict with tokens so that the errors can be ours: an unknown option, a missing
 * value or a bad number names the option as the user typed it, and says where to look (`--help`).
 */
import { parseArgs } from 'node:util';

/** Exit code for a usage error (unknown option, missing value, wrong number of files): the usual 2. */
export const USAGE_EXIT = 2;

interface OptionBase {
  /** For `--help`: one line, or several separated by `\n` (indented under the first by the help). */
  help: string;
  /** One-letter alias (`-j`); none by default. */
  short?: string;
  /** The default as the help shows it, when the value alone would not say (`none (from the referers)`). */
  defaultText?: string;
}

export interface StringOption extends OptionBase {
  type: 'string';
  /** Placeholder in the help (`OUT`, `URL`, `FILE`). */
  arg: string;
  default: string | null;
  /** The command cannot run without it (its default is then never used). */
  required?: boolean;
  /** Checks a value: null when it is good, else what the option takes (`a size such as 3GB`). */
  check?: (value: string) => string | null;
}

export interface ChoiceOption extends OptionBase {
  type: 'choice';
  choices: readonly string[];
  default: string;
}

export interface NumberOption extends OptionBase {
  type: 'number';
  arg: string;
  default: number;
  /** Smallest accepted value (inclusive); none by default. */
  min?: number;
  /** Largest accepted value (inclusive); none by default. */
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
}

export interface BooleanOption extends OptionBase {
  type: 'boolean';
  /**
   * `true`: the option is on unless `--no-NAME` is given (the help shows `--no-NAME`); `false`: off unless
   * `--NAME` is given. Both spellings are accepted either way, the last one wins.
   */
  default: boolean;
}

export type OptionSpec = StringOption | ChoiceOption | NumberOption | BooleanOption;

export interface CommandSpec {
  /** As typed after `npm run`: `analyze`. */
  name: string;
  /** What the command does, for the help (one short paragraph). */
  summary: string;
  positionals: {
    /** Placeholder in the usage line: `FILE`. */
    name: string;
    help: string;
    min: number;
    /** `Infinity` for any number. */
    max: number;
  };
  options: Record<string, OptionSpec>;
  /** Closing lines of the help (exit codes and the like). */
  epilog?: string;
}

type ValueOf<O extends OptionSpec> = O extends { type: 'choice'; choices: readonly (infer C)[] }
  ? C
  : O extends { type: 'string'; required: true }
    ? string
    : O extends { type: 'string'; default: string }
      ? string
      : O extends StringOption
        ? string | null
        : O extends NumberOption
          ? number
          : boolean;

/** The parsed options, one field per option of the table, typed from it. */
export type OptionValues<S extends CommandSpec> = { [K in keyof S['options']]: ValueOf<S['options'][K]> };

export type ParsedArgs<S extends CommandSpec> =
  { help: true; text: string } | { help: false; values: OptionValues<S>; positionals: string[] };

/** A usage error: printed as `error: …` with a pointer to `--help`, exit code `USAGE_EXIT`. */
export class UsageError extends Error {
  override name = 'UsageError';
}

function display(o: OptionSpec): string {
  if (o.defaultText !== undefined) return o.defaultText;
  if (o.type === 'boolean') return o.default ? 'on' : 'off';
  if (o.type === 'number') return String(o.default);
  return o.default === null || o.default === '' ? 'none' : o.default;
}

function spelling(name: string, o: OptionSpec): string {
  const long =
    o.type === 'boolean'
      ? o.default
        ? `--no-${name}`
        : `--${name}`
      : `--${name} ${o.type === 'choice' ? o.choices.join('|') : o.arg}`;
  return o.short ? `-${o.short}, ${long}` : long;
}

function usageLine(spec: CommandSpec): string {
  const p = spec.positionals;
  const one = p.name;
  const files =
    p.max === 0
      ? ''
      : p.min === 0
        ? p.max === 1
          ? ` [${one}]`
          : ` [${one}…]`
        : p.max === 1
          ? ` ${one}`
          : ` ${one}${p.min > 1 ? ` ${one}` : ''}…`;
  const required = Object.entries(spec.options)
    .filter(([, o]) => o.type === 'string' && o.required)
    .map(([name, o]) => ` --${name} ${(o as StringOption).arg}`)
    .join('');
  return `usage: npm run ${spec.name} --${required}${files} [options]`;
}

/** The `--help` text: usage, what the command does, every option with its default. */
export function helpText(spec: CommandSpec): string {
  const rows: [string, string][] = [];
  for (const [name, o] of Object.entries(spec.options))
    rows.push([
      spelling(name, o),
      `${o.help} (${o.type === 'string' && o.required ? 'required' : `default: ${display(o)}`})`,
    ]);
  rows.push(['-h, --help', 'print this help and exit']);
  const width = Math.max(spec.positionals.name.length, ...rows.map(([l]) => l.length)) + 2;
  const lines = [usageLine(spec), '', spec.summary, ''];
  if (spec.positionals.max > 0) {
    lines.push('arguments:', `  ${spec.positionals.name.padEnd(width)}${spec.positionals.help}`, '');
  }
  lines.push('options:');
  // A help with line breaks continues under its first line.
  for (const [l, h] of rows)
    lines.push(`  ${l.padEnd(width)}${h.split('\n').join(`\n  ${' '.repeat(width)}`)}`);
  if (spec.epilog) lines.push('', spec.epilog);
  return lines.join('\n');
}

function defaults<S extends CommandSpec>(spec: S): Record<string, string | number | boolean | null> {
  return Object.fromEntries(Object.entries(spec.options).map(([k, o]) => [k, o.default]));
}

/**
 * Parses `argv` (without node and the script) against the table. `--help` anywhere wins. Throws
 * `UsageError` naming the offending option or argument.
 */
export function parseCommand<S extends CommandSpec>(spec: S, argv: string[]): ParsedArgs<S> {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, o] of Object.entries(spec.options)) {
    config[name] = {
      type: o.type === 'boolean' ? 'boolean' : 'string',
      ...(o.short ? { short: o.short } : {}),
    };
    if (o.type === 'boolean') config[`no-${name}`] = { type: 'boolean' };
  }
  const { tokens } = parseArgs({
    args: argv,
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  if (tokens.some((t) => t.kind === 'option' && t.name === 'help'))
    return { help: true, text: helpText(spec) };

  const values = defaults(spec);
  const positionals: string[] = [];
  const given = new Set<string>();
  for (const t of tokens) {
    if (t.kind === 'positional') {
      positionals.push(t.value);
      continue;
    }
    if (t.kind !== 'option') continue;
    const negated = t.name.startsWith('no-') && spec.options[t.name.slice(3)]?.type === 'boolean';
    const name = negated ? t.name.slice(3) : t.name;
    const o = spec.options[name];
    if (!o) throw new UsageError(`unknown option ${t.rawName}`);
    given.add(name);
    if (o.type === 'boolean') {
      if (t.inlineValue) throw new UsageError(`${t.rawName} takes no value (got ${t.rawName}=${t.value})`);
      values[name] = !negated;
      continue;
    }
    // Non-strict parseArgs gives a string option typed last with no value `undefined`; one followed by
    // another option would swallow it as its value, so a value that looks like an option is refused.
    const arg = o.type === 'choice' ? o.choices.join('|') : o.arg;
    // A negative number is a value (refused below by the range, in those words).
    const negative = o.type === 'number' && /^-[\d.]/.test(t.value ?? '');
    if (t.value === undefined || (!t.inlineValue && t.value.startsWith('-') && t.value !== '-' && !negative))
      throw new UsageError(`${t.rawName} needs a value: ${t.rawName} ${arg}`);
    if (o.type === 'string') {
      const want = o.check?.(t.value);
      if (want) throw new UsageError(`${t.rawName} takes ${want}, not ${JSON.stringify(t.value)}`);
      values[name] = t.value;
      continue;
    }
    if (o.type === 'choice') {
      if (!o.choices.includes(t.value))
        throw new UsageError(
          `${t.rawName} is one of ${o.choices.join(', ')}, not ${JSON.stringify(t.value)}`,
        );
      values[name] = t.value;
      continue;
    }
    const n = Number(t.value);
    const range =
      o.min !== undefined && o.max !== undefined
        ? ` from ${o.min} to ${o.max}`
        : o.min !== undefined
          ? ` ≥ ${o.min}`
          : o.max !== undefined
            ? ` ≤ ${o.max}`
            : '';
    if (
      // Decimal notation only: Number() would also take '', '0x10', '1e2' and 'Infinity'.
      !/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t.value.trim()) ||
      !Number.isFinite(n) ||
      (o.integer && !Number.isInteger(n)) ||
      (o.min !== undefined && n < o.min) ||
      (o.max !== undefined && n > o.max)
    )
      throw new UsageError(
        `${t.rawName} takes ${o.integer ? 'a whole number' : 'a number'}${range}, not ${JSON.stringify(t.value)}`,
      );
    values[name] = n;
  }
  for (const [name, o] of Object.entries(spec.options))
    if (o.type === 'string' && o.required && !given.has(name))
      throw new UsageError(`--${name} is required: --${name} ${o.arg}`);
  const p = spec.positionals;
  if (positionals.length < p.min)
    throw new UsageError(p.min === 1 ? `missing ${p.name}` : `needs at least ${p.min} ${p.name} arguments`);
  if (positionals.length > p.max)
    throw new UsageError(
      p.max === 0
        ? `unexpected argument ${positionals[0]}`
        : `unexpected argument ${positionals[p.max]} (${p.max === 1 ? `one ${p.name}` : `at most ${p.max}`} only)`,
    );
  return { help: false, values: values as OptionValues<S>, positionals };
}

/**
 * For a command's entry point: parses `argv`, prints the help (exit 0) or a usage error (exit 2) and
 * exits, else returns the arguments.
 */
export function argsOrExit<S extends CommandSpec>(
  spec: S,
  argv: string[],
): { values: OptionValues<S>; positionals: string[] } {
  try {
    const a = parseCommand(spec, argv);
    if (a.help) {
      console.log(a.text);
      process.exit(0);
    }
    return a;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageExit(spec, e.message);
  }
}

/** A usage error found after parsing (a combination the table cannot say): print it and exit 2. */
export function usageExit(spec: CommandSpec, message: string): never {
  console.error(`error: ${message}\n${usageLine(spec)}  (npm run ${spec.name} -- --help for the options)`);
  process.exit(USAGE_EXIT);
}
