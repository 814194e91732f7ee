/** Raised inside a parser, without the file name; the pipeline adds it. */
export class FormatFault extends Error {
  readonly offset: number;
  readonly line: number;
  constructor(reason: string, where: { offset?: number; line?: number } = {}) {
    super(reason);
    this.name = 'FormatFault';
    this.offset = where.offset ?? -1;
    this.line = where.line ?? -1;
  }
}
