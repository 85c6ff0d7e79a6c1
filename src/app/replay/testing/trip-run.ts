/**
 * A small recorded run with a planted culprit, for the page's replay tests: a Langfuse export
 * (each generation with its request messages) of a planner, a researcher that searches and then
 * answers, and a writer. The researcher read the search result wrong (the museum "closed on
 * Mondays"); asked again it reads it right, and the writer, which follows whatever its context
 * says, then picks Monday. Only the researcher's answer turns the failure into a success. The
 * same run is also written as a Who&When log (tripWhoWhenLog).
 */
import type { ChatRequest, ModelResponse } from '../../../engine/model-call.ts';

const QUESTION = 'Which day this week should I visit the city museum?';
const PLAN = 'Plan: the Researcher checks the opening days, then the Writer picks the day.';
const WRONG = 'The city museum is closed on Mondays and open Tuesday to Sunday.';
const RIGHT = 'The city museum is open every day of the week, Mondays included.';
const LOOKUP = '{"query":"city museum opening days"}';
const PAGE = 'City museum: open daily 9:00-17:00. Free entry on Mondays.';
const FINAL = 'Visit on Tuesday, the first day it is open.';

/** The run as a Langfuse export: a planner, the researcher with a search tool call, and the writer. */
export function tripExport(): string {
  const system = (agent: string) => ({ role: 'system', content: `You are the ${agent}.` });
  const question = { role: 'user', content: QUESTION };
  const at = (s: number) => `2026-11-30T09:00:0${s}.000Z`;
  const agentSpan = (agent: string, s: number) => ({ id: `agent-${agent}`, traceId: 'trip', type: 'AGENT', name: agent, startTime: at(s), endTime: at(s + 1) });
  const generation = (id: string, agent: string, input: unknown[], output: string, s: number) => ({
    id, traceId: 'trip', type: 'GENERATION', name: `${agent} chat`, startTime: at(s), endTime: at(s), model: 'recorded-model',
    parentObservationId: `agent-${agent}`, input, output: { role: 'assistant', content: output }, metadata: JSON.stringify({ attributes: { 'gen_ai.agent.name': agent } }),
  });
  return JSON.stringify({
    trace: { id: 'trip', name: 'museum visit', timestamp: at(0), input: QUESTION },
    observations: [
      agentSpan('Planner', 1),
      generation('g1', 'Planner', [system('Planner'), question], PLAN, 1),
      agentSpan('Researcher', 2),
      generation('g2', 'Researcher', [system('Researcher'), question, { role: 'assistant', content: PLAN }], LOOKUP, 2),
      { id: 'search', traceId: 'trip', type: 'TOOL', name: 'search', parentObservationId: 'agent-Researcher', startTime: at(3), endTime: at(3), input: LOOKUP, output: PAGE },
      generation('g3', 'Researcher', [system('Researcher'), question, { role: 'assistant', content: PLAN }, { role: 'user', content: PAGE }], WRONG, 4),
      agentSpan('Writer', 5),
      generation('g4', 'Writer', [system('Writer'), question, { role: 'assistant', content: WRONG }], FINAL, 5),
    ],
  });
}

/** The same run as a Who&When log (a transcript, no requests; the page's text is in the question), labelled and with its correct answer. */
export function tripWhoWhenLog(): string {
  return JSON.stringify({
    is_correct: false,
    question: `${QUESTION} ${PAGE}`,
    question_ID: 'museum-1',
    ground_truth: 'Monday',
    history: [
      { role: 'human', content: `${QUESTION} ${PAGE}` },
      { role: 'assistant', name: 'Planner', content: PLAN },
      { role: 'assistant', name: 'Researcher', content: WRONG },
      { role: 'assistant', name: 'Writer', content: FINAL },
    ],
    mistake_agent: 'Researcher',
    mistake_step: '2',
    mistake_reason: 'read the opening days wrong',
  });
}

/** The scripted model: the researcher reads the page right, the writer follows its context, the planner repeats its plan. */
export function scripted(request: ChatRequest): ModelResponse {
  const who = /You are (?:the )?(\w+)/.exec(request.messages[0]?.content ?? '')?.[1];
  const all = request.messages.map((m) => m.content).join('\n');
  const says = (text: string): ModelResponse => ({ text, finish: 'stop', usage: { input: 10, output: 5 } });
  if (who === 'Planner') return says(PLAN);
  if (who === 'Researcher') return says(all.includes(PAGE) ? RIGHT : LOOKUP);
  if (who === 'Writer') return says(all.includes('closed on Mondays') ? FINAL : 'Visit on Monday: entry is free then.');
  return says('I do not know.');
}

