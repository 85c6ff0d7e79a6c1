/**
 * Reads the page's progress line once a run is done ("Done: 6 463 cases · step cost 33 179", the
 * numbers grouped with thin spaces): how many cases it analysed and their step cost, for checking
 * that the page did the same work as the command. A run where some case could not be analysed did
 * less, so it is refused.
 */
export function readDoneLine(text: string): { cases: number; cost: number } {
  const done = /^Done: ([\d\s]+) cases? · step cost ([\d\s]+)$/u.exec(text.trim());
  if (done === null) throw new Error(`not the progress line of a run done with every case analysed: ${JSON.stringify(text)}`);
  const [cases, cost] = [done[1], done[2]].map((digits) => Number(digits.replace(/\s/gu, '')));
  return { cases, cost };
}
