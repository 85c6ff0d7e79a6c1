/**
 * The dependency graph of a replay case's `recording` input as stored (a definition or a session
 * file: read field by field, never cast): each turn's `dependsOn` and quoted places, as turnLinks
 * gives them for a plan. A recording made before contexts were kept by reference lists each
 * turn's `dependsOn` itself; that list is read as it is.
 */
import { turnLinks, type TurnLinks } from './turns.ts';
import type { ContextMessage, Quote, ReplayTurn, TranscriptEntry } from './types.ts';

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function quotesOf(value: unknown, turns: number): Quote[] | null {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return null;
  const out: Quote[] = [];
  for (const q of value) {
    if (!isObject(q) || !isInt(q.start) || !isInt(q.end) || !isInt(q.from) || q.from < 0 || q.from >= turns) return null;
    out.push({ start: q.start, end: q.end, from: q.from });
  }
  return out;
}

/** Per turn, its links; null when the value is no replayed run (or names what is not in it). */
export function recordingLinks(recording: unknown): TurnLinks[] | null {
  if (!isObject(recording) || !Array.isArray(recording.turns)) return null;
  const rawTurns = recording.turns;
  if (rawTurns.every((t) => isObject(t) && Array.isArray(t.dependsOn))) {
    const old: TurnLinks[] = [];
    for (const t of rawTurns as Record<string, unknown>[]) {
      const dependsOn = t.dependsOn as unknown[];
      if (!dependsOn.every(isInt)) return null;
      old.push({ dependsOn: [...(dependsOn as number[])], substitutions: Array.isArray(t.substitutions) ? t.substitutions.length : dependsOn.length });
    }
    return old;
  }
  const transcript: TranscriptEntry[] = [];
  for (const e of Array.isArray(recording.transcript) ? recording.transcript : []) {
    if (!isObject(e) || typeof e.text !== 'string' || !(e.turn === null || (isInt(e.turn) && e.turn >= 0 && e.turn < rawTurns.length))) return null;
    transcript.push({ speaker: '', text: e.text, turn: e.turn });
  }
  const messages: ContextMessage[] = [];
  for (const m of Array.isArray(recording.messages) ? recording.messages : []) {
    const quotes = isObject(m) ? quotesOf(m.quotes, rawTurns.length) : null;
    if (!quotes) return null;
    messages.push({ role: 'user', content: '', quotes });
  }
  const turns: Pick<ReplayTurn, 'kind' | 'caller' | 'transcript' | 'context'>[] = [];
  for (const [index, t] of rawTurns.entries()) {
    if (!isObject(t) || (t.kind !== 'model' && t.kind !== 'tool')) return null;
    const turn: (typeof turns)[number] = { kind: t.kind };
    if (isInt(t.caller) && t.caller < index) turn.caller = t.caller;
    if (isInt(t.transcript)) turn.transcript = t.transcript;
    if (t.context !== undefined) {
      const c = t.context;
      if (!isObject(c) || !isInt(c.from) || c.from < -1 || c.from >= index || !Array.isArray(c.add) || !c.add.every((id) => isInt(id) && id >= 0 && id < messages.length)) return null;
      turn.context = { from: c.from, add: c.add as number[] };
    }
    turns.push(turn);
  }
  return turnLinks({ transcript, messages, turns: turns as ReplayTurn[] });
}
