/**
 * The request log of a job that calls a model (a study's analysis, "Why this decision?"): each
 * distinct request as the host settled it (turn or step, latency, from the cache or sent, tokens,
 * error), filtered by status, by turn and by text, and exported as JSONL. Nothing logged carries
 * the endpoint's key (the host keeps no header), and the export takes it out of any text that
 * quotes it (an endpoint's error message may echo it).
 */
import type { LoggedRequest } from './page-model-host.svelte.ts';

export type RequestStatus = 'sent' | 'cache' | 'failed' | 'cancelled';
export type StatusFilter = 'all' | RequestStatus;

/** A logged request as the panel shows it. */
export interface LogRow {
  /** Its place in the log, from 1. */
  n: number;
  status: RequestStatus;
  /** The turn that sent it (a replay), or the step that asked. */
  turn: string;
  record: LoggedRequest;
}

/** What a log is read from: the job's records and the key its endpoint was given, or none. */
export interface LogSource {
  log: readonly LoggedRequest[];
  logDropped: number;
  apiKey: string;
}

const REDACTED = '[api key]';

export function statusOf(record: LoggedRequest): RequestStatus {
  if (record.source === 'cancelled') return 'cancelled';
  if (record.error !== undefined) return 'failed';
  return record.source;
}

/** Text with every occurrence of the key taken out. */
export function withoutKey(text: string, key: string): string {
  const secret = key.trim();
  return secret.length < 4 ? text : text.split(secret).join(REDACTED);
}

export class RequestLog {
  status = $state<StatusFilter>('all');
  /** A turn or step label ('' for every one). */
  turn = $state('');
  /** Words to find in the turn, step, model, prompt, answer or error. */
  text = $state('');
  readonly #source: () => LogSource | null;
  readonly #label: () => (record: LoggedRequest) => string;

  /** `label`: names the turn or step of a request (a replay's turns; the step otherwise). */
  constructor(source: () => LogSource | null, label: () => (record: LoggedRequest) => string = () => (record) => record.step) {
    this.#source = source;
    this.#label = label;
  }

  rows: LogRow[] = $derived.by(() => {
    const source = this.#source();
    if (!source) return [];
    const label = this.#label();
    return source.log.map((record, k) => ({ n: k + 1, status: statusOf(record), turn: label(record), record }));
  });

  /** Requests settled but not kept (the log keeps a bounded number). */
  get dropped(): number {
    return this.#source()?.logDropped ?? 0;
  }

  /** The turns (or steps) present, in their order of first appearance. */
  turns: string[] = $derived([...new Set(this.rows.map((r) => r.turn))]);

  /** Rows per status, for the filter's labels. */
  counts: Record<StatusFilter, number> = $derived.by(() => {
    const out: Record<StatusFilter, number> = { all: this.rows.length, sent: 0, cache: 0, failed: 0, cancelled: 0 };
    for (const row of this.rows) out[row.status]++;
    return out;
  });

  shown: LogRow[] = $derived.by(() => {
    const words = this.text.trim().toLowerCase().split(/\s+/).filter((w) => w !== '');
    return this.rows.filter((row) => {
      if (this.status !== 'all' && row.status !== this.status) return false;
      if (this.turn !== '' && row.turn !== this.turn) return false;
      if (words.length === 0) return true;
      const r = row.record;
      const haystack = [row.turn, r.step, r.model, r.caseId, r.prompt, r.answer, r.error ?? ''].join('\n').toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
  });

  /** The rows shown, one JSON object a line, without the endpoint's key anywhere. */
  jsonl(): string {
    const key = this.#source()?.apiKey ?? '';
    return this.shown
      .map((row) => {
        const r = row.record;
        const line = {
          n: row.n,
          atMs: r.atMs,
          status: row.status,
          turn: row.turn,
          caseId: r.caseId,
          step: r.step,
          model: r.model,
          ...(r.latencyMs !== undefined && { latencyMs: r.latencyMs }),
          inputTokens: r.inputTokens,
          outputTokens: r.outputTokens,
          ...(r.error !== undefined && { error: r.error }),
          requestKey: r.key,
          prompt: r.prompt,
          answer: r.answer,
        };
        // Each text is cleaned before it is written: a key with characters JSON escapes would not be found after.
        return JSON.stringify(line, (_, value: unknown) => (typeof value === 'string' ? withoutKey(value, key) : value));
      })
      .map((line) => `${line}\n`)
      .join('');
  }
}
