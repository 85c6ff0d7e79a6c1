/**
 * The state of the Replay view's "Recorded beside replayed": which coalition's replay is shown
 * beside the record (the repair or every fix), its turns compared with the record
 * (src/replay compareReplay), and which runs of unchanged turns the user unfolded.
 */
import type { CaseResult, LlmMessage } from '../../engine/types.ts';
import { compareReplay, replayRunOf, type TurnComparison } from '../../replay/index.ts';

/** A coalition whose replay the analysis kept: its fixed players (definition step indices) and step outputs. */
export interface CoalitionChoice {
  /** `repair`, `all`, or `alone:STEP`. */
  id: string;
  label: string;
  fixed: ReadonlySet<number>;
  outputs: Readonly<Record<string, unknown>>;
}

/**
 * The coalitions a result keeps outputs of: the repair (its first minimal repair, else the first
 * step whose fix alone reaches the outcome), every fix, then each step's fix alone.
 */
export function coalitionChoices(result: CaseResult | undefined, steps: readonly string[]): CoalitionChoice[] {
  if (!result || result.error !== undefined || !result.failed) return [];
  const out: CoalitionChoice[] = [];
  const repair = result.repairs?.[0];
  const alone = result.aloneOutputs;
  // Without a repair search, a step whose fix alone reaches the outcome is a minimal repair (of one step).
  const single = result.resolvedAlone?.find((step) => alone !== undefined && Object.hasOwn(alone, step));
  if (repair && result.repairedOutputs) {
    const fixed = new Set(repair.fixed.map((name) => steps.indexOf(name)).filter((k) => k >= 0));
    out.push({ id: 'repair', label: `The repair: ${repair.fixed.join(' + ')}`, fixed, outputs: result.repairedOutputs });
  } else if (single !== undefined && alone) {
    out.push({ id: 'repair', label: `The repair: ${single} alone`, fixed: new Set([steps.indexOf(single)]), outputs: alone[single] });
  }
  if (result.fixedOutputs) out.push({ id: 'all', label: `Every fix (${steps.length} step${steps.length === 1 ? '' : 's'})`, fixed: new Set(steps.map((_, k) => k)), outputs: result.fixedOutputs });
  if (alone) {
    steps.forEach((step, k) => {
      if (Object.hasOwn(alone, step)) out.push({ id: `alone:${step}`, label: `${step}: its fix alone`, fixed: new Set([k]), outputs: alone[step] });
    });
  }
  return out;
}

/** Whether the turn shows beside the record: it changed, or its replay was not kept (so it is not known unchanged). */
export function showsChange(turn: TurnComparison): boolean {
  return turn.replayed === null || turn.outputChanged || turn.inputChanged;
}

/** A turn on show, or a run of unchanged turns folded into one row (named by its first turn's index). */
export type FactualRow = { kind: 'turn'; turn: TurnComparison } | { kind: 'fold'; from: number; turns: TurnComparison[] };

/** The rows: changed turns each, runs of unchanged ones folded unless their first index is in `open`. */
export function factualRows(turns: readonly TurnComparison[], open: ReadonlySet<number>): FactualRow[] {
  const rows: FactualRow[] = [];
  let run: TurnComparison[] = [];
  const flush = () => {
    if (run.length === 0) return;
    if (open.has(run[0].index)) for (const turn of run) rows.push({ kind: 'turn', turn });
    else rows.push({ kind: 'fold', from: run[0].index, turns: run });
    run = [];
  };
  for (const turn of turns) {
    if (showsChange(turn)) {
      flush();
      rows.push({ kind: 'turn', turn });
    } else run.push(turn);
  }
  flush();
  return rows;
}

/**
 * A request's messages as text to diff by lines: `role: content`, each tool call on a line of its
 * own, every line ended (so a message added after the last one leaves that one unchanged).
 */
export function requestText(messages: readonly LlmMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    lines.push(`${m.role}${m.tool_call_id !== undefined ? ` (answers ${m.tool_call_id})` : ''}: ${m.content}`);
    for (const c of m.tool_calls ?? []) lines.push(`  call ${c.id}: ${c.function.name}(${c.function.arguments})`);
  }
  return lines.map((l) => l + '\n').join('');
}

/** An answer's text with its tool calls, each on a line of its own. */
export function answerText(side: { text: string; toolCalls: readonly { name: string; arguments: string }[] }): string {
  return [side.text, ...side.toolCalls.map((c) => `call ${c.name}(${c.arguments})`)].filter((t) => t !== '').join('\n');
}

/** What a replayed turn's origin means, in the page's words. */
export const VIA_WORDS: Readonly<Record<NonNullable<TurnComparison['via']>, string>> = {
  recorded: 'kept as recorded',
  model: 'sent to the model',
  action: 'replaced by its action fix',
  observation: 'replaced by its observation fix',
  stub: 'its tool stub ran',
  reused: 'the recorded result reused for a changed call (no stub)',
  absent: 'the call is no longer made',
  waiting: 'not answered',
};

export interface FactualSource {
  recording: unknown;
  result: CaseResult | undefined;
  steps: readonly string[];
}

export class FactualReplayed {
  readonly #source: () => FactualSource;
  /** The chosen coalition (null: the first there is, the repair when there is one). */
  choice = $state<string | null>(null);
  /** Runs of unchanged turns unfolded, by their first turn's index. */
  open = $state.raw<ReadonlySet<number>>(new Set());
  /** Turns whose request is open (built and diffed only then: a long run's requests repeat its conversation). */
  requests = $state.raw<ReadonlySet<number>>(new Set());

  readonly read = $derived.by(() => replayRunOf(this.#source().recording));
  readonly choices = $derived.by(() => coalitionChoices(this.#source().result, this.#source().steps));
  readonly chosen = $derived(this.choices.find((c) => c.id === this.choice) ?? this.choices[0]);
  readonly turns = $derived.by((): TurnComparison[] => {
    const read = this.read;
    const chosen = this.chosen;
    return 'run' in read && chosen ? compareReplay(read.run, this.#source().steps, chosen.outputs, chosen.fixed) : [];
  });
  readonly rows = $derived(factualRows(this.turns, this.open));
  readonly changed = $derived(this.turns.filter(showsChange).length);

  constructor(source: () => FactualSource) {
    this.#source = source;
  }

  choose(id: string): void {
    this.choice = id;
    this.open = new Set();
    this.requests = new Set();
  }

  /** Opens or closes a turn's request. */
  showRequest(index: number, shown: boolean): void {
    if (shown === this.requests.has(index)) return;
    const next = new Set(this.requests);
    if (shown) next.add(index);
    else next.delete(index);
    this.requests = next;
  }

  unfold(from: number): void {
    this.open = new Set([...this.open, from]);
  }

  /** Folds every run of unchanged turns again. */
  foldAll(): void {
    this.open = new Set();
  }
}
