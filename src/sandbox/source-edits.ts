import type { SourcePosition } from './source-position.ts';

/** Replace source[start, end) by `text`, which holds as many line breaks as what it replaces. */
export interface SourceEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Where an edit moved the rest of its last line: on `line` (1-based), a generated column at or
 * past `column + shift` comes from `shift` columns further left in the user's file.
 */
export interface ColumnShift {
  line: number;
  column: number;
  shift: number;
}

/**
 * An edit replacing source[start, end) by `text`, followed by the line breaks it replaces, so
 * every later line keeps its number (positions in errors still point into the user's file).
 */
export function lineKeepingEdit(source: string, start: number, end: number, text: string): SourceEdit {
  const breaks = source.slice(start, end).split('\n').length - 1;
  return { start, end, text: text + '\n'.repeat(breaks) };
}

/** `source` with `edits` applied (non-overlapping, line-keeping), and the column shifts they made. */
export function applyEdits(source: string, edits: readonly SourceEdit[]): { text: string; shifts: ColumnShift[] } {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  const shifts: ColumnShift[] = [];
  const position = positionsInOrder(source);
  for (const edit of sorted) {
    if (edit.start < at || edit.end < edit.start) throw new Error('internal: overlapping source edits');
    const replaced = source.slice(edit.start, edit.end);
    if (replaced.split('\n').length !== edit.text.split('\n').length) throw new Error('internal: a source edit would move lines');
    parts.push(source.slice(at, edit.start), edit.text);
    at = edit.end;
    const startColumn = position(edit.start).column;
    const { line, column } = position(edit.end);
    // Generated column of the edit's end: on the last line of its text.
    const lastLine = edit.text.slice(edit.text.lastIndexOf('\n') + 1);
    const generated = replaced.includes('\n') ? lastLine.length + 1 : startColumn + edit.text.length;
    shifts.push({ line, column, shift: generated - column });
  }
  parts.push(source.slice(at));
  return { text: parts.join(''), shifts };
}

/** positionAt for offsets asked in increasing order, scanning the source once (it may be megabytes). */
function positionsInOrder(source: string): (offset: number) => SourcePosition {
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  return (offset) => {
    for (; scanned < offset && scanned < source.length; scanned++) {
      if (source.charCodeAt(scanned) === 10) {
        line++;
        lineStart = scanned + 1;
      }
    }
    return { line, column: offset - lineStart + 1 };
  };
}

/**
 * The user's column of a generated column on `line`: undo the line's shifts left to right (each
 * shift's column is in the user's coordinates, the ones before it already undone).
 */
export function originalColumn(shifts: readonly ColumnShift[], line: number, column: number): number {
  let result = column;
  for (const shift of shifts) {
    if (shift.line === line && result >= shift.column + shift.shift) result -= shift.shift;
  }
  return result;
}
