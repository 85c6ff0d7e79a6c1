/**
 * Replay of a recorded run (docs/replay.md): a Who&When-shaped log of N turns (20 in the full
 * suite) by four agents taking turns, whose fifth turn states a wrong value that every later turn
 * repeats. Blamed with `--players agents` (exact, 16 coalitions) on the Node worker pool against
 * the loopback fake endpoint with a fixed latency (50 ms), at concurrency 1 and 8, each from an
 * empty cache: requests sent and wall time; then a rerun from the filled cache, which sends none.
 * The scripted model: a repaired turn states the right value, any other turn the latest value in
 * its transcript.
 */
import type { ChatRequest, ModelAnswer, ModelResponse, ModelUsage } from '../../src/engine/model-call.ts';
import { DEFAULT_SETTINGS } from '../../src/engine/settings.ts';
import type { AnalysisSettings, CaseResult } from '../../src/engine/types.ts';
import { readWhoWhen } from '../../src/formats/importers/whowhen.ts';
import { endpointConfig, ModelHost, type HostRequest, MemoryResponseCache } from '../../src/model/index.ts';
import { startFakeEndpoint } from '../../src/model/testing/fake-endpoint.ts';
import { NodeAnalysisPool, type ModelResolver } from '../../src/pool/node/analysis-pool.ts';
import { buildReplay } from '../../src/replay/index.ts';
import { timeRuns } from '../lib/measure.ts';
import type { WorkloadResult } from '../lib/result.ts';
import type { SuiteSizes } from '../lib/sizes.ts';

const AGENTS = ['Planner', 'Researcher', 'Analyst', 'Writer'];
const CULPRIT = 4;

function log(turns: number): string {
  const history = [{ role: 'human', content: 'What is the value? Work it out together.' }];
  for (let i = 0; i < turns; i++) {
    const agent = AGENTS[i % AGENTS.length];
    const value = i < CULPRIT ? 12 : 13;
    history.push({ role: 'assistant', name: agent, content: `Turn ${i}: ${agent} here, the value is ${value}.` } as never);
  }
  return JSON.stringify({ question: 'What is the value?', ground_truth: 'the value is 12', history, mistake_agent: AGENTS[CULPRIT % AGENTS.length], mistake_step: String(CULPRIT + 1) });
}

function scripted(request: ChatRequest): ModelResponse {
  const all = request.messages.map((m) => m.content).join('\n');
  const who = /You are (\w+)/.exec(request.messages[0].content)?.[1] ?? 'someone';
  const repaired = request.messages.at(-1)!.content.startsWith('Your answer above may be wrong');
  const values = [...all.matchAll(/the value is (\d+)/g)].map((m) => m[1]);
  const value = repaired ? '12' : (values.at(-1) ?? '0');
  return { text: `${who} again: the value is ${value}.`, finish: 'stop', usage: { input: all.length >> 2, output: 8 } };
}

export async function replayWorkload(sizes: SuiteSizes): Promise<WorkloadResult[]> {
  const endpoint = await startFakeEndpoint({ latencyMs: sizes.replayLatencyMs, answer: scripted });
  let host = new ModelHost();
  const resolver: ModelResolver = {
    resolve: (requests: HostRequest[], signal?: AbortSignal): Promise<Map<string, ModelAnswer>> => host.resolve(requests, signal),
    usage: (caseId: string): ModelUsage => host.usage(caseId),
  };
  const run = readWhoWhen(log(sizes.replayTurns), 'bench/replay.json').runs[0];
  const def = buildReplay([run], { players: 'agents', fixes: [], outcome: null, origin: 'bench' });
  const pool = new NodeAnalysisPool({ size: 1, timeoutMs: 600_000, fileName: 'replay.js', model: resolver });
  const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' } };
  const rows: WorkloadResult[] = [];
  const label = `${sizes.replayTurns}-turn run, 4 agents, exact, ${sizes.replayLatencyMs} ms per request`;
  try {
    let reference: string | null = null;
    let filled: MemoryResponseCache | null = null;
    for (const concurrency of sizes.replayConcurrency) {
      const before = endpoint.requests.length;
      const cache = new MemoryResponseCache();
      const { timing, result } = await timeRuns(1, 0, () => {
        host = new ModelHost({ endpoint: endpointConfig({ baseUrl: endpoint.url, concurrency }), cache });
        return pool.run(def.source, def.cases, settings);
      });
      const check = summary(result);
      if (result[0].error) throw new Error(`replay: ${result[0].error}`);
      if (reference === null) reference = check;
      else if (check !== reference) throw new Error(`replay: results at concurrency ${concurrency} differ from the first run`);
      filled = cache;
      rows.push({
        group: 'replay',
        name: `replay of a ${label}: concurrency ${concurrency}`,
        ...timing,
        evaluations: result[0].evaluations,
        detail: { requestsSent: endpoint.requests.length - before, concurrency, top: topPlayer(result[0]), usage: host.totalUsage() },
      });
    }
    const before = endpoint.requests.length;
    const { timing, result } = await timeRuns(1, 0, () => {
      host = new ModelHost({ endpoint: endpointConfig({ baseUrl: endpoint.url }), cache: filled! });
      return pool.run(def.source, def.cases, settings);
    });
    if (summary(result) !== reference) throw new Error('replay: the rerun from the cache gives other results');
    rows.push({ group: 'replay', name: `replay of a ${label}: rerun from the cache`, ...timing, evaluations: result[0].evaluations, detail: { requestsSent: endpoint.requests.length - before } });
  } finally {
    await pool.close();
    await endpoint.close();
  }
  return rows;
}

function topPlayer(r: CaseResult): string | null {
  if (!r.shapley) return null;
  return Object.entries(r.shapley).sort((a, b) => b[1] - a[1])[0][0];
}

function summary(results: readonly CaseResult[]): string {
  return JSON.stringify(results.map((r) => [r.id, r.error ?? null, r.shapley, r.evaluations]));
}
