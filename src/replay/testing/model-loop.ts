/**
 * Analyses a replay definition in this process, answering its model requests with a scripted
 * model, round after round as the command's pool does: what the tests compare the command with.
 */
import { analyzeSourceCaseRound } from '../../sandbox/analyze-source.ts';
import type { ChatRequest, ModelAnswer, ModelResponse } from '../../engine/model-call.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';

export function analyzeWithModel(source: string, caseDef: CaseDef, settings: AnalysisSettings, model: (request: ChatRequest) => ModelResponse, fileName = 'replay.js'): { result: CaseResult; sent: ChatRequest[] } {
  const answers = new Map<string, ModelAnswer>();
  const sent: ChatRequest[] = [];
  for (let round = 0; round < 500; round++) {
    const r = analyzeSourceCaseRound(source, caseDef, settings, answers, {}, fileName);
    if (r.kind === 'result') return { result: r.result, sent };
    for (const p of r.requests) {
      if (answers.has(p.key)) throw new Error(`request ${p.key} asked for twice`);
      sent.push(p.request);
      answers.set(p.key, model(p.request));
    }
  }
  throw new Error('too many rounds');
}

/** A chat answer with the given text (usage: one token each way). */
export function says(text: string): ModelResponse {
  return { text, finish: 'stop', usage: { input: 1, output: 1 } };
}
