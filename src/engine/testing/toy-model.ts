import type { ChatRequest, ModelAnswer, ModelResponse, PendingRequest } from '../model-call.ts';
import { analyzeCaseRound, type CaseRound } from '../analyze-round.ts';
import { hash53 } from '../hash.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../types.ts';
import type { ValidPipeline } from '../pipeline.ts';

/**
 * A tiny deterministic stand-in for a chat model, for engine tests: the answer is a pure function
 * of the request. Plain chats answer `ANSWER:<x>` from the system message when there is one, else
 * a word chosen by a hash of the last message. A choose request (lettered options) gets label
 * log-probabilities that favour the option named by `PREFER:<option>` in any message.
 */
export function toyAnswer(request: ChatRequest): ModelResponse {
  const all = request.messages.map((m) => m.content).join('\n');
  const usage = { input: all.split(/\s+/).length, output: 1 };
  if (request.logprobs) {
    const last = request.messages[request.messages.length - 1].content;
    const options = [...last.matchAll(/^([A-Z])\. (.*)$/gm)].map((m) => ({ letter: m[1], text: m[2] }));
    const prefer = /PREFER:(\S+)/.exec(all)?.[1];
    const raw = options.map((o) => (o.text === prefer ? 3 : 0) + (hash53(`${o.text}\u0000${all}`) % 7) / 7);
    const norm = Math.log(raw.reduce((s, x) => s + Math.exp(x), 0));
    return { text: options[0]?.letter ?? '', finish: 'length', usage, topLogprobs: options.map((o, k) => ({ token: o.letter, logprob: raw[k] - norm })) };
  }
  const answer = /ANSWER:(\S+)/.exec(request.messages.find((m) => m.role === 'system')?.content ?? '')?.[1];
  const words = ['alpha', 'beta', 'gamma', 'delta'];
  const seedPart = request.seed === undefined ? '' : `#${request.seed}`;
  const text = answer ?? words[hash53(`${request.messages[request.messages.length - 1].content}${seedPart}`) % words.length];
  return { text, finish: 'stop', usage };
}

/** Probability-ordered logits toyAnswer gives a choose request (for simulated twins). */
export function toyChooseLogits(options: readonly string[], prompt: string): Record<string, number> {
  const listing = options.map((o, k) => `${String.fromCharCode(65 + k)}. ${o}`).join('\n');
  const all = `${prompt}\nAnswer with the letter of one option only.\n${listing}`;
  const raw = options.map((o) => (o === /PREFER:(\S+)/.exec(all)?.[1] ? 3 : 0) + (hash53(`${o}\u0000${all}`) % 7) / 7);
  const norm = Math.log(raw.reduce((s, x) => s + Math.exp(x), 0));
  return Object.fromEntries(options.map((o, k) => [o, raw[k] - norm]));
}

/**
 * Drive a case's rounds to its result, answering pending requests with `answer` (the host's job in
 * the command and the page). Records every request sent, so tests can check each is sent once.
 */
export function runRounds(
  def: ValidPipeline,
  c: CaseDef,
  settings: AnalysisSettings,
  answer: (request: ChatRequest) => ModelAnswer = toyAnswer,
  answers: Map<string, ModelAnswer> = new Map(),
  sent: PendingRequest[] = [],
): { result: CaseResult; rounds: number; sent: PendingRequest[] } {
  for (let rounds = 1; rounds < 1000; rounds++) {
    const round: CaseRound = analyzeCaseRound(def, c, settings, answers);
    if (round.kind === 'result') return { result: round.result, rounds, sent };
    for (const p of round.requests) {
      if (answers.has(p.key)) throw new Error(`request ${p.key} was asked for again after it was answered`);
      sent.push(p);
      answers.set(p.key, answer(p.request));
    }
  }
  throw new Error('rounds did not settle');
}
