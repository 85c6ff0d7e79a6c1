/**
 * Ranks 1..n with tied values sharing the mean of the ranks they span ("mid-ranks", Kendall &
 * Gibbons, Rank Correlation Methods, 5th ed., 1990, ch. 3), the convention under which Spearman's
 * coefficient equals Pearson's correlation of the ranks, ties included.
 */
export function averageRanks(xs: readonly number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b] || a - b);
  const ranks = new Array<number>(xs.length);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && xs[order[end]] === xs[order[start]]) end++;
    // Positions start..end-1 hold ranks start+1..end; their mean is (start + 1 + end) / 2.
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]] = rank;
    start = end;
  }
  return ranks;
}
