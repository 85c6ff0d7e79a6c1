/**
 * Which context a rerun was asked of, so its answer can be read beside the change that produced it:
 * the recorded context, the context with pieces removed (a whole message replaced by a fill text),
 * or the context with a fix. `Rerun` receives it with every request (src/why/method.ts); the
 * page lists every rerun's answer under it.
 */
import { isWholeMessage, type Piece } from './context.ts';

export interface RerunVariant {
  /** `none`: the recorded context; `removed`: `pieces` removed; `fix`: the fix `fix` applied. */
  change: 'none' | 'removed' | 'fix';
  /** The pieces removed (with `removed`), each with whether it was a whole message (replaced by `fill`). */
  pieces?: { id: string; text: string; whole: boolean }[];
  /** The text a whole message removed was replaced by. */
  fill?: string;
  fix?: string;
}

export const UNCHANGED: RerunVariant = { change: 'none' };

export function removedVariant(pieces: readonly Piece[], fill: string): RerunVariant {
  return { change: 'removed', pieces: pieces.map((p) => ({ id: p.id, text: p.text, whole: isWholeMessage(p.path) })), fill };
}

function quoted(text: string, max = 60): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return `“${one.length > max ? `${one.slice(0, max - 1)}…` : one}”`;
}

/** The change in a few words: "unchanged (the recorded context)", "without m3:p1 “…”", "m2 replaced by “…”", "fix untrusted-content". */
export function describeVariant(v: RerunVariant): string {
  if (v.change === 'none') return 'unchanged (the recorded context)';
  if (v.change === 'fix') return `with the fix ${v.fix ?? ''}`.trimEnd();
  const pieces = v.pieces ?? [];
  const one = (p: { id: string; text: string; whole: boolean }) => (p.whole && v.fill !== undefined ? `${p.id} replaced by ${quoted(v.fill)}` : `without ${p.id} ${quoted(p.text)}`);
  return pieces.map((p) => one(p)).join('; ');
}
