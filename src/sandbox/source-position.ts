/** A 1-based line and column in the user's file, as editors show them. */
export interface SourcePosition {
  line: number;
  column: number;
}

/** Line and column (both 1-based) of a character offset in `source`. */
export function positionAt(source: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** `pipeline.js:3:14`, the form editors and terminals turn into links. */
export function formatPosition(fileName: string, position: SourcePosition): string {
  return `${fileName}:${position.line}:${position.column}`;
}
