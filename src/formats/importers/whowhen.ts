/**
 * Who&When failure-attribution logs (FORMATS.md §1): one JSON object per failed task, a flat
 * transcript `history[]` and the label (`mistake_agent`, `mistake_step` as a string index).
 * One step per history entry, named by its agent (Hand-Crafted roles such as
 * `Orchestrator (-> WebSurfer)` name the agent before " ("); terminal turns are tool steps.
 * The run id comes from the file name (`hand/12`), so predictions files can name runs.
 */
import { buildRun, type RunLabel, type StepDraft, type StepKind } from '../../runs/index.ts';
import { FormatError } from '../format-error.ts';
import type { Importer } from '../importer.ts';
import { childPath, indexPath } from '../json-path.ts';
import { describeValue, expectArray, expectObject, ownField, type JsonObject } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { optString } from '../recorded/fields.ts';

const TERMINALS = new Set(['computer_terminal', 'computerterminal']);

/** `Orchestrator (-> WebSurfer)` -> `Orchestrator`. */
export function agentOfRole(role: string): string {
  const cut = role.indexOf(' (');
  return cut < 0 ? role : role.slice(0, cut);
}

function kindOf(agent: string): StepKind {
  if (TERMINALS.has(agent.toLowerCase())) return 'tool';
  if (agent === 'human' || agent === 'user') return 'other';
  return 'agent';
}

/** `hand/12.json` -> `hand/12`; `12.json` -> `12`. */
export function runIdFromFileName(fileName: string): string {
  const parts = fileName.replace(/\\/g, '/').split('/').filter((p) => p !== '');
  return parts.slice(-2).join('/').replace(/\.json$/i, '');
}

function readLabel(log: JsonObject): RunLabel | undefined {
  const agent = optString(log, 'mistake_agent', '');
  const rawStep = ownField(log, 'mistake_step');
  if (agent === undefined && (rawStep === undefined || rawStep === null)) return undefined;
  if (agent === undefined) throw new FormatError('mistake_agent', 'missing (expected the agent named with mistake_step)');
  const step = typeof rawStep === 'string' && /^\d+$/.test(rawStep.trim()) ? Number(rawStep) : typeof rawStep === 'number' && Number.isInteger(rawStep) && rawStep >= 0 ? rawStep : undefined;
  if (step === undefined) throw new FormatError('mistake_step', `expected a step index (a whole number, as text or a number), ${describeValue(rawStep)}`);
  return { agent, step };
}

export function readWhoWhen(text: string, fileName?: string) {
  const log = expectObject(parseJsonKeepingBigInts(text), '(top level)');
  const history = expectArray(ownField(log, 'history'), 'history');
  const handCrafted = Object.hasOwn(log, 'is_corrected') || (history.length > 0 && !Object.hasOwn(expectObject(history[0], 'history[0]'), 'name'));
  const steps: StepDraft[] = history.map((entry, i) => {
    const path = indexPath('history', i);
    const turn = expectObject(entry, path);
    const role = optString(turn, 'role', path) ?? '';
    const named = optString(turn, 'name', path);
    const agent = named ?? agentOfRole(role);
    if (agent === '') throw new FormatError(childPath(path, 'role'), 'missing (expected the speaker: name or role)');
    const content = ownField(turn, 'content');
    if (content !== undefined && content !== null && typeof content !== 'string') throw new FormatError(childPath(path, 'content'), `expected a string, ${describeValue(content)}`);
    return {
      id: String(i),
      parent: null,
      name: agent,
      kind: kindOf(agent),
      start: null,
      end: null,
      model: null,
      usage: null,
      error: null,
      agent,
      order: i,
      output: { form: 'value', value: content ?? '', role: kindOf(agent) === 'tool' ? 'tool' : agent === 'human' ? 'user' : 'assistant' },
      attributes: named !== undefined ? { role, name: named } : { role },
    };
  });
  const label = readLabel(log);
  if (label && label.step >= steps.length) throw new FormatError('mistake_step', `step ${label.step} is past the last of ${steps.length} history entries`);
  const group = handCrafted ? 'Hand-Crafted' : 'Algorithm-Generated';
  const questionId = optString(log, 'question_ID', '');
  const id = fileName !== undefined && fileName !== '' ? runIdFromFileName(fileName) : (questionId ?? 'run');
  const solved = ownField(log, 'is_correct') ?? ownField(log, 'is_corrected');
  const run = buildRun({ id, name: `Who&When ${group} ${id}`, steps, status: solved === true ? 'ok' : 'error', label, group });
  // The task and its correct answer, for replays (the default outcome is "the final answer contains it").
  const question = ownField(log, 'question');
  const task = typeof question === 'string' && question.trim() !== '' ? question : undefined;
  const expected = ownField(log, 'ground_truth');
  return { format: 'whowhen', runs: [{ ...run, ...(task !== undefined && { task }), ...((typeof expected === 'string' || typeof expected === 'number') && String(expected).trim() !== '' && { expected: String(expected) }) }] };
}

export const whowhenImporter: Importer = {
  label: 'Who&When failure logs',
  shapes: [{ name: 'a Who&When failure log', paths: ['history[]', 'mistake_agent'] }],
  sniff: (text) => /^\s*\{/.test(text.slice(0, 64).replace(/^\uFEFF/, '')) && text.includes('"history"') && text.includes('"mistake_agent"'),
  import: (text, fileName) => ({ kind: 'runs', runs: readWhoWhen(text, fileName) }),
};
