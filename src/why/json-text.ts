/** JSON inside a message: reading it, pointers into it (RFC 6901), and writing it back in its own style. */
import { parseJson } from '../runs/index.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The message's text as JSON, when it is a JSON object or array; undefined otherwise. */
export function parseJsonText(text: string): Json | undefined {
  return parseJson(text) as Json | undefined;
}

export function escapeToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function tokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `pointer`, or undefined when there is none. */
export function valueAt(root: Json, pointer: string): Json | undefined {
  let at: Json | undefined = root;
  for (const token of tokens(pointer)) {
    if (Array.isArray(at)) at = at[Number(token)];
    else if (at !== null && typeof at === 'object') at = Object.hasOwn(at, token) ? at[token] : undefined;
    else return undefined;
  }
  return at;
}

/** Replace the value at `pointer` (which exists). */
export function setAt(root: Json, pointer: string, value: Json): Json {
  const path = tokens(pointer);
  if (path.length === 0) return value;
  const parent = valueAt(root, '/' + path.slice(0, -1).map(escapeToken).join('/').replace(/^\/$/, '')) ?? root;
  const last = path[path.length - 1];
  if (Array.isArray(parent)) parent[Number(last)] = value;
  else if (parent !== null && typeof parent === 'object') parent[last] = value;
  return root;
}

/** Remove the items at the pointers (deepest and last first, so earlier removals move nothing still to remove). */
export function removeAt(root: Json, pointers: readonly string[]): Json {
  const sorted = [...pointers].map(tokens).sort((a, b) => b.length - a.length || compareLast(b, a));
  for (const path of sorted) {
    if (path.length === 0) continue;
    const parentPointer = path.length === 1 ? '' : '/' + path.slice(0, -1).map(escapeToken).join('/');
    const parent = valueAt(root, parentPointer);
    const last = path[path.length - 1];
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else if (parent !== null && typeof parent === 'object') delete parent[last];
  }
  return root;
}

function compareLast(a: string[], b: string[]): number {
  const x = Number(a[a.length - 1]);
  const y = Number(b[b.length - 1]);
  return Number.isFinite(x) && Number.isFinite(y) ? x - y : a.join('/') < b.join('/') ? -1 : 1;
}

type Style = (value: Json) => string;

const STYLES: Style[] = [
  // Python's json.dumps default, what most Python agents record.
  (v) => pythonStyle(v),
  (v) => JSON.stringify(v),
  (v) => JSON.stringify(v, null, 2),
  (v) => JSON.stringify(v, null, 4),
];

/** The writer that reproduces `text` from its parsed value (Python's style when none does). */
export function jsonStyleOf(text: string, value: Json): Style {
  return STYLES.find((style) => style(value) === text.trim()) ?? STYLES[0];
}

function pythonStyle(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(pythonStyle).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonStyle(v)}`).join(', ')}}`;
  return JSON.stringify(value);
}
