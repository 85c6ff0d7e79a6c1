/**
 * Shared wording between a piece and the decision: how `--dry` ranks suspects with no model call,
 * and which pieces are tested first when there are more than the cap (runtape ranks the same way).
 */
const STOP = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'you', 'your', 'are', 'was', 'not', 'but', 'have', 'has', 'from', 'our', 'will', 'can', 'all', 'any', 'its', 'they', 'them', 'their', 'there', 'what', 'when', 'which', 'who', 'would', 'should', 'could', 'into', 'about', 'than', 'then', 'also', 'just', 'true', 'false', 'null']);

/** Lower-case words of three letters or more, stop words left out (tool names split at _ and -). */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) if (m[0].length >= 3 && !STOP.has(m[0])) out.add(m[0]);
  return out;
}

/** How many of the decision's words the text shares. */
export function sharedWording(text: string, decisionWords: ReadonlySet<string>): number {
  let n = 0;
  for (const w of words(text)) if (decisionWords.has(w)) n++;
  return n;
}
