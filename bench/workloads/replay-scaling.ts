/**
 * Replay scaling (docs/replay.md, "What a replay costs"; #33 point 6): synthetic runtape logs of
 * 100, 200, 400 and 2 000 turns (a support agent alternating a native tool call and its result,
 * each request the previous one plus the call and its result), each replayed with one player
 * (`--players agents`: one agent, every model turn repaired) by exact Shapley on the Node worker
 * pool against the loopback fake endpoint answering at once. Per size: the definition's bytes
 * (and per turn, and against the trace), the time to build it, the replay's wall and CPU time,
 * the requests sent, and the rounds that restarted or waited.
 */
import type { ChatRequest, ModelAnswer, ModelResponse, ModelUsage } from '../../src/engine/model-call.ts';
import { DEFAULT_SETTINGS } from '../../src/engine/settings.ts';
import type { AnalysisSettings } from '../../src/engine/types.ts';
import { readRuntape } from '../../src/formats/importers/runtape.ts';
import { endpointConfig, ModelHost, type HostRequest, MemoryResponseCache } from '../../src/model/index.ts';
import { startFakeEndpoint } from '../../src/model/testing/fake-endpoint.ts';
import { NodeAnalysisPool, type ModelResolver } from '../../src/pool/node/analysis-pool.ts';
import { useNodeSha256 } from '../../src/pool/node/native-sha256.ts';
import { buildReplay, replayRounds } from '../../src/replay/index.ts';
import { runtapeLog } from '../../src/replay/testing/runtape-log.ts';
import { timeRuns } from '../lib/measure.ts';
import type { WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

function answer(request: ChatRequest): ModelResponse {
  return { text: `Checked again (${request.messages.length} messages): the refund stands.`, finish: 'stop', usage: { input: request.messages.length, output: 8 } };
}

export async function replayScalingWorkload(sizes: SuiteSizes, log: (line: string) => void = () => {}): Promise<WorkloadResult[]> {
  // The model host keys requests as the command's does (src/cli/main.ts).
  useNodeSha256();
  const endpoint = await startFakeEndpoint({ latencyMs: 0, answer });
  let host = new ModelHost();
  const resolver: ModelResolver = {
    resolve: (requests: HostRequest[], signal?: AbortSignal): Promise<Map<string, ModelAnswer>> => host.resolve(requests, signal),
    usage: (caseId: string): ModelUsage => host.usage(caseId),
  };
  // The largest run's chain of requests takes a round each (1 000 at 2 000 turns), as the command allows.
  const longest = buildReplay([readRuntape(runtapeLog(Math.max(...sizes.replayScalingTurns))).runs[0]], { players: 'agents', fixes: [], outcome: { kind: 'expect', text: 'refund approved' }, origin: 'bench' });
  const pool = new NodeAnalysisPool({ size: 1, timeoutMs: 1_200_000, fileName: 'replay.js', model: resolver, maxModelRounds: replayRounds(longest, DEFAULT_SETTINGS) });
  const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' } };
  const rows: WorkloadResult[] = [];
  try {
    for (const turns of sizes.replayScalingTurns) {
      const trace = runtapeLog(turns);
      const t0 = performance.now();
      const run = readRuntape(trace).runs[0];
      const def = buildReplay([run], { players: 'agents', fixes: [], outcome: { kind: 'expect', text: 'refund approved' }, origin: 'bench' });
      const buildMs = performance.now() - t0;
      const before = endpoint.requests.length;
      const rounds0 = { ...pool.modelRounds };
      const host0 = process.cpuUsage();
      // One timed run: the larger sizes take long, and a second would be answered from the cache.
      const { timing, result } = await timeRuns(1, 0, () => {
        host = new ModelHost({ endpoint: endpointConfig({ baseUrl: endpoint.url, concurrency: 8 }), cache: new MemoryResponseCache() });
        return pool.run(def.source, def.cases, settings);
      });
      const hostCpu = process.cpuUsage(host0);
      if (result[0].error) throw new Error(`replay scaling, ${turns} turns: ${result[0].error}`);
      const bytes = def.source.length;
      log(`replay-scaling: ${turns} turns in ${(timing.wallMs / 1000).toFixed(1)} s, definition ${bytes} bytes`);
      rows.push({
        group: 'replay-scaling',
        name: `runtape log of ${turns} turns, one player, instant endpoint`,
        ...timing,
        evaluations: result[0].evaluations,
        detail: {
          turns: def.runs[0].turns.length,
          traceBytes: trace.length,
          definitionBytes: bytes,
          bytesPerTurn: Math.round(bytes / def.runs[0].turns.length),
          definitionOverTrace: Number((bytes / trace.length).toFixed(2)),
          buildMs: Math.round(buildMs),
          requestsSent: endpoint.requests.length - before,
          // Rounds restarted from the start, and responses a waiting round took (docs/replay.md, "Time").
          restarts: pool.modelRounds.restarts - rounds0.restarts,
          waits: pool.modelRounds.waits - rounds0.waits,
          // This process's share (the pool, the model host, the fake endpoint); the rest is the worker's.
          hostCpuMs: Math.round((hostCpu.user + hostCpu.system) / 1000),
        },
      });
    }
  } finally {
    await pool.close();
    await endpoint.close();
  }
  return rows;
}
