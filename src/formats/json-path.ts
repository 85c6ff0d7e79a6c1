/**
 * Builds the human-readable paths used in FormatError messages: `cases[3].inputs`,
 * `cases[0].observed["draw key"]`. Keys that are plain identifiers use dot notation; anything else
 * is quoted with JSON escapes so the path itself can never be ambiguous or carry control characters.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The path of property `key` inside the value at `path` ('' is the top level). */
export function childPath(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === '' ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

/** The path of element `index` inside the array at `path`. */
export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}
