/** Shorter listed cases are left in: dropping them saves less than the copy costs. */
const WORTH_DROPPING = 1_000;

/**
 * The definition with its inline case list (`range`, from PreparedSource.listedCases) replaced by
 * `[]`, for workers that only analyse cases they are given (each such worker
 * re-parsed 12 MB of listed cases, which cost as much as the analysis of 300 000 cases). Every
 * other line and column stays where it was, so errors still point into the user's file: the
 * list's line breaks are kept, and spaces restore the column of what follows it on its last line
 * (only when something but closing punctuation follows). The result is a definition that behaves
 * the same in every step, fix and metric; only its `cases` are empty.
 */
export function withoutListedCases(source: string, range: { start: number; end: number } | null): string {
  if (range === null || range.end - range.start < WORTH_DROPPING) return source;
  const listed = source.slice(range.start, range.end);
  const breaks = listed.split('\n').length - 1;
  const lineEnd = source.indexOf('\n', range.end);
  const rest = source.slice(range.end, lineEnd < 0 ? source.length : lineEnd);
  let padding = '';
  if (!/^[\s,;)}\]]*$/.test(rest)) {
    const lastLine = breaks > 0 ? listed.slice(listed.lastIndexOf('\n') + 1).length : listed.length - 2;
    padding = ' '.repeat(Math.max(0, lastLine));
  }
  return `${source.slice(0, range.start)}[]${'\n'.repeat(breaks)}${padding}${source.slice(range.end)}`;
}
