/**
 * Where earlier turns' recorded outputs occur verbatim in a recorded context message
 * (docs/replay.md, "Replay rule"). Found once per distinct message, when the definition is
 * generated; at replay each span is replaced by that turn's replayed output. Outputs shorter than
 * MIN_QUOTED characters are not looked for: "ok" or "4" occur everywhere by chance.
 */
import type { Quote } from './types.ts';

export const MIN_QUOTED = 8;

/** The texts an output may be quoted as: itself, and a JSON output also compact (runtape records it pretty-printed). */
function quotedForms(output: string): string[] {
  if (output.length < MIN_QUOTED || output.trim().length < MIN_QUOTED) return [];
  const t = output.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return [output];
  try {
    const compact = JSON.stringify(JSON.parse(t));
    return compact !== output && compact.length >= MIN_QUOTED ? [output, compact] : [output];
  } catch {
    return [output];
  }
}

/**
 * Every occurrence of every earlier output, then a left-to-right choice of non-overlapping spans:
 * at one start the longer span wins, between equal spans the later turn (the most recent speaker
 * of the same words).
 */
export function findQuotes(content: string, earlier: readonly { index: number; output: string }[]): Quote[] {
  const found: Quote[] = [];
  for (const turn of earlier) {
    for (const needle of quotedForms(turn.output)) {
      for (let at = content.indexOf(needle); at >= 0; at = content.indexOf(needle, at + needle.length)) found.push({ start: at, end: at + needle.length, from: turn.index });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end || b.from - a.from);
  const out: Quote[] = [];
  let reached = 0;
  for (const s of found) {
    if (s.start < reached) continue;
    out.push(s);
    reached = s.end;
  }
  return out;
}
