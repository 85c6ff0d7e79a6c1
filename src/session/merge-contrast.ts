/** Merging the `contrast` of shard sessions (merge-study.ts). */
import type { RunContrast, SessionContrast, Session } from './types.ts';

/**
 * The contrast of merged shards: each shard computes the contrast of its own runs, so the merge
 * keeps every run's entry, in case order. Shards that ran the contrast with different replays per
 * arm do not merge (the rows would not be comparable); `refuse` says which files differ.
 */
export function mergedContrast(inputs: readonly { file: string; session: Session }[], refuse: (message: string) => Error): SessionContrast | undefined {
  const withContrast = inputs.filter((i) => i.session.contrast !== undefined);
  if (withContrast.length === 0) return undefined;
  const first = withContrast[0];
  const replays = first.session.contrast!.replays;
  const runs = new Map<string, RunContrast>();
  for (const { file, session } of withContrast) {
    const contrast = session.contrast!;
    if (contrast.replays !== replays) throw refuse(`"${file}": contrast.replays: ${contrast.replays} replays per arm, but "${first.file}" has ${replays}; run the contrast with the same --contrast N in every shard`);
    for (const run of contrast.runs) if (!runs.has(run.run)) runs.set(run.run, run);
  }
  const order = first.session.cases.map((c) => c.id);
  return { version: 1, replays, runs: order.flatMap((id) => (runs.has(id) ? [runs.get(id)!] : [])) };
}
