/**
 * The one error type every importer throws. `path` says where in the file the problem is, in
 * JSON-path style (`cases[3].inputs`), prefixed with the line for JSONL (`line 5 (cases[3]).inputs`);
 * `detail` says what is wrong. The message joins the two so a single line is enough to act on.
 */
export class FormatError extends Error {
  override readonly name = 'FormatError';
  /** Where the problem is; '' when it concerns the file as a whole. */
  readonly path: string;
  /** What is wrong, without the path. */
  readonly detail: string;
  /** 1-based line and column in the file, when the problem is at a known place in the text. */
  readonly line?: number;
  readonly column?: number;

  constructor(path: string, detail: string, position?: { line: number; column: number }) {
    super(path === '' ? detail : `${path}: ${detail}`);
    this.path = path;
    this.detail = detail;
    if (position) {
      this.line = position.line;
      this.column = position.column;
    }
  }
}
