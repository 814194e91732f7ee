import { LINE_FORMATS, lineWord, type FormatId, type IngestErrorInfo, type ProblemKind } from '../types';
import { IngestError } from './errors';

/**
 * Problems read past, one entry per kind (per reason when it has none): the first occurrence and how
 * many times it happened.
 */
export type Problem = { reason: string; offset: number; count: number; kind?: ProblemKind };

/**
 * One problem kind as the analyst reads it: a file written by a tool with a habit (node-warc's short
 * separator, ClueWeb09's lengths) shows it once with a count, not once per record.
 */
export function warningInfo(fileName: string, w: Problem, format: FormatId | null): IngestErrorInfo {
  const lines = format !== null && LINE_FORMATS.has(format);
  const word = lineWord(format);
  const at = `${lines ? word : 'byte'} ${w.offset.toLocaleString('en-US')}`;
  const reason =
    w.count > 1
      ? `${w.reason} (${w.count.toLocaleString('en-US')} ${lines ? `${word}s` : 'records'}; the first at ${at})`
      : w.reason;
  const info = new IngestError(
    fileName,
    reason,
    lines ? { line: w.offset, lineWord: word } : { offset: w.offset },
  ).toInfo();
  // The kind is a key views may look for (access-log.ts HOST_GUESSED).
  return w.kind ? { ...info, kind: w.kind } : info;
}
