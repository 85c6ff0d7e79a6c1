/**
 * The training pairs of a study with model steps (an llm.choose and an llm.chat step), written by
 * the command's --pairs against the loopback fake endpoint and by the page's "Export pairs" from
 * the same study analysed in process with its response store: the two files have equal lines, and
 * a model step's prompt is the request messages it sent (for llm.choose, with its lettered
 * options), its rejected and chosen outputs the options chosen, not the letters answered.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCaseRound, DEFAULT_SETTINGS, type ModelAnswer } from '../engine/index.ts';
import type { ChatRequest, ModelResponse } from '../engine/model-call.ts';
import type { CaseResult } from '../engine/types.ts';
import { fakeModelAnswer } from '../model/testing/fake-model.ts';
import { useFakeEndpoints } from '../model/testing/use-fake-endpoints.ts';
import { compilePipeline } from '../sandbox/compile.ts';
import { pagePairs, pairResponses, pairsJsonl } from '../app/repairs/pairs-export.ts';
import { runBlame } from './testing/run-blame.ts';
import { CLASSIFY_STEP_SOURCE } from '../sandbox/testing/triage-source.ts';

const OPTIONS = ['refund', 'escalate', 'close'];
// Success needs both steps right: the ticket classed "refund" and the policy's reply, so a failure
// classed otherwise is repaired by {classify, reply} and gives one pair per step.
const SOURCE = `
const OPTIONS = ${JSON.stringify(OPTIONS)};
export default {
  name: 'pairs-agree',
  models: { default: 'fake-model' },
  steps: [
${CLASSIFY_STEP_SOURCE}
    { name: 'reply', inputs: ['classify', 'ticket'], cost: 1,
      run: ({ classify, ticket }, noise, { llm }) => llm.chat({ messages: [{ role: 'system', content: classify === 'refund' ? 'ANSWER:refund-ok' : 'ANSWER:sorry' }, { role: 'user', content: ticket }], temperature: 0 }).text,
      fixes: [{ name: 'policy', cost: 2, run: ({ ticket }, noise, { llm }) => llm.chat({ messages: [{ role: 'system', content: 'ANSWER:refund-ok-thanks' }, { role: 'user', content: ticket }], temperature: 0 }).text }] },
  ],
  metric: (out) => (out.classify === 'refund' && out.reply === 'refund-ok-thanks' ? 1 : 0),
  cases: Array.from({ length: 6 }, (_, k) => ({ id: 't' + k, inputs: { ticket: 'order ' + k + ' arrived broken' } })),
};
`;

const blame = (args: string[]) => runBlame(args);

describe('training pairs of model steps: the command and the page agree', () => {
  const fake = useFakeEndpoints();
  it('writes equal lines, with the requests as prompts and the chosen options as outputs', async () => {
    const endpoint = await fake();
    const dir = mkdtempSync(join(tmpdir(), 'blame-pairs-agree-'));
    const file = join(dir, 'agree.pipeline.js');
    writeFileSync(file, SOURCE);
    const commandFile = join(dir, 'command.pairs.jsonl');
    const r = await blame([file, '--model-url', endpoint.url, '--repairs', '--pairs', commandFile, '--json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);

    // The page: the same study analysed in process, its responses kept in a store by key.
    const def = compilePipeline(SOURCE, 'agree.pipeline.js');
    const settings = { ...DEFAULT_SETTINGS, repairs: { size: 3 } };
    const stored = new Map<string, { key: string; request: ChatRequest; response: ModelResponse }>();
    const results: CaseResult[] = def.cases!.map((c) => {
      const answers = new Map<string, ModelAnswer>();
      for (;;) {
        const round = analyzeCaseRound(def, c, settings, answers);
        if (round.kind === 'result') return round.result;
        for (const p of round.requests) {
          const response = fakeModelAnswer(p.request);
          answers.set(p.key, response);
          stored.set(p.key, { key: p.key, request: p.request, response });
        }
      }
    });
    const store = { getMany: async (keys: readonly string[]) => new Map(keys.flatMap((k) => (stored.has(k) ? [[k, stored.get(k)!] as const] : []))) };
    const pageDef = { steps: def.steps, fixOf: (step: string) => def.steps.find((s) => s.name === step)?.fixes[0]?.name ?? null };
    const page = pairsJsonl(pagePairs(results, def.cases!, pageDef, await pairResponses(results, store)));

    const command = readFileSync(commandFile, 'utf8');
    expect(command.length).toBeGreaterThan(0);
    expect(page.split('\n')).toEqual(command.split('\n'));

    const lines = command.trimEnd().split('\n').map((l) => JSON.parse(l));
    const choose = lines.filter((p) => p.step === 'classify');
    const chat = lines.filter((p) => p.step === 'reply');
    expect(choose.length).toBeGreaterThan(0);
    expect(chat.length).toBeGreaterThan(0);
    for (const p of choose) {
      expect(OPTIONS).toContain(p.rejected);
      expect(p.chosen).toBe('refund');
      // The choose request as sent: the ticket with the lettered options.
      const ticket = def.cases!.find((c) => c.id === p.case)!.inputs.ticket;
      expect(p.prompt).toEqual([{ role: 'user', content: `Ticket: ${ticket}\nAnswer with the letter of one option only.\nA. refund\nB. escalate\nC. close` }]);
    }
    for (const p of chat) {
      expect(p.chosen).toBe('refund-ok-thanks');
      expect(Array.isArray(p.prompt)).toBe(true);
      expect(p.prompt[0]).toEqual({ role: 'system', content: p.rejected === 'refund-ok' ? 'ANSWER:refund-ok' : 'ANSWER:sorry' });
    }
  }, 60_000);
});
