/**
 * What the Replay view reads of a replay case: its `recording` input (the run as the replay
 * definition embeds it). The input comes from a definition or a session file, so it is read field
 * by field into a plain copy; anything else is not a replay case (null).
 */
import type { CaseDef } from '../../engine/types.ts';
import { recordingLinks } from '../../replay/index.ts';

export interface RecordedTurnView {
  index: number;
  /** The recorded step, as the run view numbers steps. */
  step: number;
  name: string;
  agent: string;
  kind: 'model' | 'tool';
  /** Turn indices whose output its context quotes. */
  dependsOn: number[];
  /** Its player's index, -1 for none. */
  player: number;
  /** The definition step that replays it (its requests' seeds name that step). */
  segment: number;
  /** The kinds of its interventions. */
  fixes: string[];
}

export interface RecordingView {
  id: string;
  /** The run's name, when it has one of its own (else the view names the run by its id). */
  name?: string;
  players: string[];
  turns: RecordedTurnView[];
}

const isInt = (v: unknown): v is number => Number.isInteger(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function turnOf(value: unknown, dependsOn: number[]): RecordedTurnView | null {
  if (!isObject(value)) return null;
  const { index, step, name, agent, kind, player, fixes, segment } = value;
  if (!isInt(index) || !isInt(step) || typeof name !== 'string' || typeof agent !== 'string' || (kind !== 'model' && kind !== 'tool') || !isInt(player) || !isInt(segment)) return null;
  if (!Array.isArray(fixes)) return null;
  const kinds: string[] = [];
  for (const f of fixes) {
    if (!isObject(f) || typeof f.kind !== 'string') return null;
    kinds.push(f.kind);
  }
  return { index, step, name, agent, kind, dependsOn: [...dependsOn], player, segment, fixes: kinds };
}

/** The replay a case stands for, or null. */
export function recordingOf(caseDef: CaseDef | undefined): RecordingView | null {
  const value: unknown = caseDef?.inputs?.recording;
  if (!isObject(value) || typeof value.id !== 'string' || !Array.isArray(value.players) || !value.players.every((p) => typeof p === 'string') || !Array.isArray(value.turns)) return null;
  const links = recordingLinks(value);
  if (!links) return null;
  const turns: RecordedTurnView[] = [];
  for (const [k, raw] of value.turns.entries()) {
    const turn = turnOf(raw, links[k].dependsOn);
    if (!turn) return null;
    turns.push(turn);
  }
  return { id: value.id, ...(typeof value.name === 'string' && value.name !== '' && { name: value.name }), players: [...value.players], turns };
}
