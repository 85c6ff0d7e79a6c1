/** How big each workload is: the full suite (the reference's sizes) or a tiny smoke run for tests. */
export interface SuiteSizes {
  /** Timed runs per workload (the median is reported) and untimed warm-up runs before them. */
  runs: number;
  warmup: number;
  /** Worker threads for the demo batches (0 = analyse in this thread). */
  workers: number;
  ragCases: number;
  ragWorlds: number;
  crnCases: number;
  crnWorlds: number;
  crnReplicates: number;
  crnPermutations: number;
  eightMcPermutations: number[];
  eightBatchCases: number;
  eightStreamCases: number;
  /** Seeded repetitions of the planted batch the bandit stop's coverage is shown on (the issue asks for 200). */
  plantedReps: number;
  exactPlayers: number[];
  mcPlayers: number[];
  mcTargetError: number;
  mcSeeds: number;
  /** Players of the estimator comparison (value tables), and those also run as pipelines. */
  estimatorTablePlayers: number[];
  estimatorPipelinePlayers: number[];
  estimatorMaxPermutations: number;
  sandboxCases: number;
  /** Cases of a definition listing its own cases, against the same given separately. */
  ownCases: number[];
  /** Model steps: cases of the 8-step agent with model steps, the endpoint's latency, concurrencies. */
  modelCases: number;
  modelLatencyMs: number;
  modelConcurrency: number[];
  /** Replay of a recorded run: its turns, the endpoint's latency, concurrencies. */
  replayTurns: number;
  replayLatencyMs: number;
  replayConcurrency: number[];
  /** Replay scaling: runtape logs of these many turns, replayed with one player against an instant endpoint. */
  replayScalingTurns: number[];
  /** why: decisions explained on the simulated model (planted cause, and none). */
  whyDecisions: number;
  /** Trends: daily studies and the failures of each (docs/trends.md, "a year of daily studies"). */
  trendStudies: number;
  trendFailures: number;
}

export const FULL_SIZES: SuiteSizes = {
  runs: 3,
  warmup: 1,
  workers: 0, // filled in from the machine's cores by the runner
  ragCases: 200,
  ragWorlds: 8,
  crnCases: 100,
  crnWorlds: 4,
  crnReplicates: 8,
  crnPermutations: 16,
  eightMcPermutations: [16, 64, 256, 1024],
  eightBatchCases: 400,
  eightStreamCases: 3000,
  plantedReps: 200,
  exactPlayers: [12, 16, 20, 22],
  mcPlayers: [16, 32],
  mcTargetError: 0.02,
  mcSeeds: 5,
  estimatorTablePlayers: [16, 32, 64],
  estimatorPipelinePlayers: [16, 32, 64],
  estimatorMaxPermutations: 50_000,
  sandboxCases: 200,
  ownCases: [2000, 8000],
  modelCases: 12,
  modelLatencyMs: 100,
  modelConcurrency: [1, 4, 16],
  replayTurns: 20,
  replayLatencyMs: 50,
  replayConcurrency: [1, 8],
  replayScalingTurns: [100, 200, 400, 2000],
  whyDecisions: 20,
  trendStudies: 365,
  trendFailures: 500,
};

/** Every workload at a size that runs in a few seconds: for bench/bench.test.ts. */
export const SMOKE_SIZES: SuiteSizes = {
  runs: 1,
  warmup: 0,
  workers: 0,
  ragCases: 12,
  ragWorlds: 2,
  crnCases: 3,
  crnWorlds: 2,
  crnReplicates: 2,
  crnPermutations: 2,
  eightMcPermutations: [4],
  eightBatchCases: 3,
  eightStreamCases: 24,
  plantedReps: 10,
  exactPlayers: [6],
  mcPlayers: [6],
  mcTargetError: 0.1,
  mcSeeds: 1,
  estimatorTablePlayers: [6],
  estimatorPipelinePlayers: [6],
  estimatorMaxPermutations: 300,
  sandboxCases: 3,
  ownCases: [20],
  modelCases: 2,
  modelLatencyMs: 5,
  modelConcurrency: [1, 4],
  replayTurns: 8,
  replayLatencyMs: 5,
  replayConcurrency: [1, 8],
  replayScalingTurns: [20, 40],
  whyDecisions: 2,
  trendStudies: 6,
  trendFailures: 20,
};
