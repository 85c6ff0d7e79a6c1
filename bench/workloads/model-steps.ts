/**
 * Model steps: the 8-step agent rewritten with llm.choose / llm.chat
 * (bench/lib/model-eight-step.ts), analysed exactly on the Node worker pool against the loopback
 * fake endpoint with a fixed latency per request (100 ms in the full suite). For each
 * concurrency (1, 4, 16) a fresh model host with an empty cache: requests sent against the naive
 * count (coalition runs x steps: a call per step of every coalition run), and wall time. Then
 * the same run again over the filled cache, which must send nothing. Results must not depend on
 * the concurrency (checked).
 */
import type { ModelAnswer, ModelUsage } from '../../src/engine/model-call.ts';
import { DEFAULT_SETTINGS } from '../../src/engine/settings.ts';
import type { AnalysisSettings, CaseResult } from '../../src/engine/types.ts';
import { endpointConfig, ModelHost, type HostRequest, MemoryResponseCache } from '../../src/model/index.ts';
import { startFakeEndpoint } from '../../src/model/testing/fake-endpoint.ts';
import { NodeAnalysisPool, type ModelResolver } from '../../src/pool/node/analysis-pool.ts';
import { MODEL_EIGHT_STEP_SOURCE } from '../lib/model-eight-step.ts';
import { timeRuns } from '../lib/measure.ts';
import type { WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

const STEPS = 8;

export async function modelStepsWorkload(sizes: SuiteSizes): Promise<WorkloadResult[]> {
  const endpoint = await startFakeEndpoint({ latencyMs: sizes.modelLatencyMs });
  // One pool for every run; the host behind it is swapped per run, so worker start-up is paid once, untimed.
  let host = new ModelHost();
  const resolver: ModelResolver = {
    resolve: (requests: HostRequest[], signal?: AbortSignal): Promise<Map<string, ModelAnswer>> => host.resolve(requests, signal),
    usage: (caseId: string): ModelUsage => host.usage(caseId),
  };
  const pool = new NodeAnalysisPool({ size: Math.max(1, sizes.workers), timeoutMs: 300_000, fileName: 'eight-step-agent-model.js', model: resolver });
  const rows: WorkloadResult[] = [];
  try {
    const cases = (await pool.describe(MODEL_EIGHT_STEP_SOURCE)).cases.slice(0, sizes.modelCases);
    const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' } };
    let reference: string | null = null;
    let wallAtOne: number | null = null;
    let filled: MemoryResponseCache | null = null;
    const label = `${cases.length} cases, exact, ${sizes.modelLatencyMs} ms per request`;
    for (const concurrency of sizes.modelConcurrency) {
      const before = endpoint.requests.length;
      const cache = new MemoryResponseCache();
      const config = endpointConfig({ baseUrl: endpoint.url, concurrency });
      // Latency dominates: one timed run per concurrency, each from an empty cache.
      const { timing, result } = await timeRuns(1, 0, () => {
        host = new ModelHost({ endpoint: config, cache });
        return pool.run(MODEL_EIGHT_STEP_SOURCE, cases, settings);
      });
      const sent = endpoint.requests.length - before;
      const check = summary(result);
      if (reference === null) reference = check;
      else if (check !== reference) throw new Error(`model-steps: results at concurrency ${concurrency} differ from the first run`);
      wallAtOne ??= timing.wallMs;
      filled = cache;
      const naive = result.reduce((s, r) => s + r.evaluations * STEPS, 0);
      rows.push({
        group: 'model-steps',
        name: `8-step agent with model steps, ${label}: concurrency ${concurrency}`,
        ...timing,
        evaluations: result.reduce((s, r) => s + r.evaluations, 0),
        detail: { requestsSent: sent, naiveRequests: naive, sentOverNaive: sent / naive, concurrency, speedUpOverFirst: wallAtOne / timing.wallMs, usage: host.totalUsage() },
      });
    }
    // Again over the filled cache: nothing is sent; what is left is the rounds' own cost.
    const before = endpoint.requests.length;
    const { timing, result } = await timeRuns(1, 0, () => {
      host = new ModelHost({ endpoint: endpointConfig({ baseUrl: endpoint.url }), cache: filled! });
      return pool.run(MODEL_EIGHT_STEP_SOURCE, cases, settings);
    });
    if (summary(result) !== reference) throw new Error('model-steps: the rerun from the cache gives other results');
    rows.push({
      group: 'model-steps',
      name: `8-step agent with model steps, ${label}: rerun from the cache`,
      ...timing,
      evaluations: result.reduce((s, r) => s + r.evaluations, 0),
      detail: { requestsSent: endpoint.requests.length - before, cacheHits: host.totalUsage().cacheHits },
    });
  } finally {
    await pool.close();
    await endpoint.close();
  }
  return rows;
}

/** What must agree between runs: every case's values and error (usage differs by design). */
function summary(results: readonly CaseResult[]): string {
  return JSON.stringify(results.map((r) => [r.id, r.error ?? null, r.shapley, r.evaluations]));
}
