/**
 * A pinned PySpark for the tests and benches that run spark/dedup_join.py on a real Spark in local
 * mode. It is installed once into a virtual environment under the user's cache
 * (~/.cache/dedup-workbench/spark-venv-<version>, or $DEDUP_SPARK_VENV), so the README's test command
 * needs no step of its own; a marker written after pip succeeds makes a half-done install start over.
 * Spark needs Java 17 (on this project's machines; `.ci/run` installs it where it lacks).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { REVISIT_COLUMNS, RESULT_COLUMNS, resultRows } from './batch-results';

export const PYSPARK_VERSION = '3.5.9';

export interface SparkEnv {
  /** spark-submit of the venv, and the environment it needs (the venv's python first on PATH). */
  sparkSubmit: string;
  env: NodeJS.ProcessEnv;
  version: string;
}

/** Whether Java and Python 3 are here at all (else the Spark test says why it cannot run). */
export function sparkPrerequisites(): string | null {
  if (spawnSync('java', ['-version']).status !== 0) return 'java is not installed';
  if (spawnSync('python3', ['--version']).status !== 0) return 'python3 is not installed';
  return null;
}

export function ensureSparkEnv(log: (line: string) => void = () => {}): SparkEnv {
  const venv = resolve(
    process.env.DEDUP_SPARK_VENV ??
      join(homedir(), '.cache', 'dedup-workbench', `spark-venv-${PYSPARK_VERSION}`),
  );
  const marker = join(venv, '.installed');
  if (!existsSync(marker)) {
    log(`installing pyspark ${PYSPARK_VERSION} into ${venv} (once)…`);
    rmSync(venv, { recursive: true, force: true });
    execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
    execFileSync(
      join(venv, 'bin', 'pip'),
      ['install', '-q', '--disable-pip-version-check', `pyspark==${PYSPARK_VERSION}`],
      {
        stdio: 'inherit',
      },
    );
    writeFileSync(marker, `pyspark==${PYSPARK_VERSION}\n`);
  }
  const bin = join(venv, 'bin');
  // spark-submit finds Spark through the venv's python; a SPARK_HOME from elsewhere (even empty) would win.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    PYSPARK_PYTHON: join(bin, 'python'),
  };
  delete env.SPARK_HOME;
  delete env.PYSPARK_DRIVER_PYTHON;
  return {
    sparkSubmit: join(bin, 'spark-submit'),
    env,
    version: PYSPARK_VERSION,
  };
}

/** The arguments of a local-mode run of the driver: no web UI, few shuffle partitions, quiet logs. */
export function localSparkArgs(driver: string, outDir: string, cores = 2, extra: string[] = []): string[] {
  return [
    '--master',
    `local[${cores}]`,
    '--conf',
    'spark.ui.enabled=false',
    '--conf',
    'spark.driver.memory=1g',
    '--conf',
    'spark.sql.shuffle.partitions=4',
    driver,
    '--out',
    outDir,
    ...extra,
  ];
}

/**
 * The DuckDB join's results in DIR against the Spark driver's in DIR/spark, table by table: rows of
 * each, and the tables whose rows differ.
 */
export async function compareEngines(
  outDir: string,
  sparkDir = join(outDir, 'spark'),
): Promise<{ table: string; duckdb: string[]; spark: string[]; same: boolean }[]> {
  const out = [];
  const tables: [string, string][] = Object.entries(RESULT_COLUMNS);
  if (existsSync(join(outDir, 'revisits.parquet'))) tables.push(['revisits', REVISIT_COLUMNS]);
  for (const [table, cols] of tables) {
    const duckdb = await resultRows(join(outDir, `${table}.parquet`), cols);
    const spark = await resultRows(join(sparkDir, `${table}.parquet`, '*.parquet'), cols);
    out.push({
      table,
      duckdb,
      spark,
      same: duckdb.length === spark.length && duckdb.every((r, i) => r === spark[i]),
    });
  }
  return out;
}

/** spark/dedup_join.py on DIR in local mode: its wall time and output (throws with its log on failure). */
export function runSparkJoin(
  spark: SparkEnv,
  driver: string,
  outDir: string,
  cores = 2,
  /** More arguments of the driver (--results DIR, --vars FILE). */
  extra: string[] = [],
): { ms: number; stdout: string } {
  const t0 = performance.now();
  const run = spawnSync(spark.sparkSubmit, localSparkArgs(driver, outDir, cores, extra), {
    env: spark.env,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  const ms = performance.now() - t0;
  if (run.status !== 0) {
    const log = run.stderr
      .split('\n')
      .filter((l) => !/ (INFO|WARN) /.test(l))
      .join('\n');
    throw new Error(`spark-submit exited ${run.status}:\n${run.stdout}\n${log}`);
  }
  return { ms, stdout: run.stdout };
}
