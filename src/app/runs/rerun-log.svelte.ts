/**
 * Every rerun of a why run, as the panel lists it: which change to the recorded context it was
 * asked of, what the model answered (its text and its tool calls with their arguments), and
 * whether that answer counted as the decision. Filled as answers reach the page (cached ones
 * too), cleared when a new run starts; a long list can be narrowed to the counted or the other reruns.
 */
import { parseJson } from '../../runs/index.ts';
import { decides, describeVariant, type Predicate, type Reply, type RerunVariant } from '../../why/index.ts';

export interface LoggedRerun {
  /** Order of arrival (a key for the list). */
  order: number;
  /** The change to the context, in words ("unchanged (the recorded context)", "without m3 “…”"). */
  variant: string;
  /** Which rerun of that context (its seed's index). */
  replicate: number;
  text: string;
  /** The answer's tool calls, arguments pretty-printed when they are JSON. */
  calls: { name: string; arguments: string }[];
  /** Whether the answer made the decision (counted in k of n). */
  counted: boolean;
}

export type RerunFilter = 'all' | 'counted' | 'not-counted';

/** A list longer than this offers the counted / not counted filter. */
export const FILTER_ABOVE = 10;

function pretty(args: string): string {
  const value = parseJson(args);
  return value === undefined ? args : JSON.stringify(value, null, 2);
}

export class RerunLog {
  entries = $state.raw<readonly LoggedRerun[]>([]);
  filter = $state<RerunFilter>('all');
  readonly counted = $derived(this.entries.reduce((n, e) => n + (e.counted ? 1 : 0), 0));
  readonly shown = $derived(this.filter === 'all' ? this.entries : this.entries.filter((e) => e.counted === (this.filter === 'counted')));
  /** Whether the list is long enough to be filtered. */
  readonly filterable = $derived(this.entries.length > FILTER_ABOVE);

  /** The answers to one request of the method: `replies[i]` answered rerun `replicates[i]` of `variant`. */
  add(predicate: Predicate, variant: RerunVariant | undefined, replicates: readonly number[], replies: readonly Reply[]): void {
    const change = variant === undefined ? 'a context the method did not name' : describeVariant(variant);
    const start = this.entries.length;
    const added = replies.map((reply, i): LoggedRerun => ({
      order: start + i,
      variant: change,
      replicate: replicates[i] ?? i,
      text: reply.text,
      calls: reply.toolCalls.map((c) => ({ name: c.name, arguments: pretty(c.arguments) })),
      counted: decides(predicate, reply),
    }));
    this.entries = [...this.entries, ...added];
  }

  clear(): void {
    this.entries = [];
    this.filter = 'all';
  }
}
