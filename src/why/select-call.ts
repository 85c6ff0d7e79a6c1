/**
 * Choosing the model call of a recorded run to explain (`--why last | tool:NAME | INDEX`) and the
 * decision it made, and reading that call's context as why edits it.
 */
import { readStepMessages, type ChatMessage, type RecordedRun, type RecordedStep } from '../runs/index.ts';
import type { WhyMessage, WhyRole, WhyToolCall } from './context.ts';
import { compileMatch, decides, describePredicate, parseReply, type Predicate, type Reply } from './decision.ts';
import { WhySelectionError } from './selection-error.ts';


export interface SelectedCall {
  /** The step's index in the run's steps (as `--inspect` lists them). */
  index: number;
  step: RecordedStep;
  messages: WhyMessage[];
  /** What the recorded call answered. */
  recorded: Reply;
  predicate: Predicate;
}

const ROLES: Record<string, WhyRole> = { system: 'system', developer: 'system', user: 'user', human: 'user', assistant: 'assistant', ai: 'assistant', model: 'assistant', tool: 'tool', function: 'tool', ipython: 'tool' };

/** The call's input messages as why edits them: roles mapped to the four a chat request has, tool results named by their call. */
export function contextOf(step: RecordedStep): WhyMessage[] {
  const callNames = new Map<string, string>();
  return readStepMessages(step, 'input').map((m: ChatMessage) => {
    const role = ROLES[m.role.toLowerCase()] ?? 'user';
    const out: WhyMessage = { role, text: m.text };
    const calls: WhyToolCall[] = (m.toolCalls ?? []).map((c) => ({ name: c.name, arguments: c.arguments }));
    for (const c of m.toolCalls ?? []) if (c.id !== undefined) callNames.set(c.id, c.name);
    if (calls.length > 0) out.toolCalls = calls;
    const name = m.name ?? (m.toolCallId !== undefined ? callNames.get(m.toolCallId) : undefined);
    if (name !== undefined) out.name = name;
    return out;
  });
}

/** What the recorded call answered: its text and tool calls. */
export function recordedReply(step: RecordedStep): Reply {
  const out = readStepMessages(step, 'output');
  const text = out.map((m) => m.text).join('\n');
  const toolCalls = out.flatMap((m) => (m.toolCalls ?? []).map((c) => ({ name: c.name, arguments: c.arguments })));
  return toolCalls.length > 0 ? { text, toolCalls } : parseReply(text);
}

function isModelCall(step: RecordedStep): boolean {
  return step.kind === 'llm' && step.input !== undefined;
}

/**
 * The call `which` names in the run, and its predicate; a WhySelectionError says what is wrong, in
 * words of neither front end (the input it is about is named by the caller: `inputProblem`).
 */
export function selectCall(run: RecordedRun, which: string, match?: string): SelectedCall {
  if (match !== undefined) compileMatch(match);
  let index: number;
  let tool: string | undefined;
  const calls = run.steps.flatMap((s, i) => (isModelCall(s) ? [i] : []));
  if (calls.length === 0) throw new WhySelectionError('call', `run "${run.id}" has no model call with recorded input messages`);
  if (which === 'last') index = calls[calls.length - 1];
  else if (which.startsWith('tool:')) {
    tool = which.slice('tool:'.length);
    if (tool === '') throw new WhySelectionError('call', 'tool:NAME needs a tool name');
    const predicate = { tool, match };
    const found = calls.filter((i) => decides(predicate, recordedReply(run.steps[i])));
    if (found.length === 0) throw new WhySelectionError('call', `run "${run.id}": no model call calls tool "${tool}"${match === undefined ? '' : ` with arguments matching /${match}/`}`);
    index = found[found.length - 1];
  } else if (/^\d+$/.test(which)) {
    index = Number(which);
    const step = run.steps[index];
    if (!step) throw new WhySelectionError('call', `step ${which}: run "${run.id}" has steps 0 to ${run.steps.length - 1}`);
    if (!isModelCall(step)) throw new WhySelectionError('call', `step ${index} ("${step.name}") is not a model call with recorded input (model calls: ${calls.slice(0, 12).join(', ')}${calls.length > 12 ? ', ...' : ''})`);
  } else throw new WhySelectionError('call', `expected last, tool:NAME or a step index, got "${which}"`);
  const step = run.steps[index];
  const recorded = recordedReply(step);
  if (tool === undefined && recorded.toolCalls.length > 0) tool = recorded.toolCalls[0].name;
  if (tool === undefined && match === undefined) throw new WhySelectionError('match', `step ${index} makes no tool call, so its decision is a text: give a regular expression that its answer matches`);
  const predicate: Predicate = { ...(tool !== undefined && { tool }), ...(match !== undefined && { match }) };
  if (!decides(predicate, recorded)) throw new WhySelectionError('match', `step ${index}: the recorded answer does not match the decision (${describePredicate(predicate)})`);
  const messages = contextOf(step);
  if (messages.length === 0) throw new WhySelectionError('call', `step ${index} has no input messages to rerun`);
  return { index, step, messages, recorded, predicate };
}
