/**
 * Each run's "Blame this run" setup kept in this browser (localStorage), so a reload of
 * `#blame/<run>` reopens the setup as it was left: players, fixes, outcome (with its metric file),
 * tool stubs and the model fields. Versioned, and read field by field: a setup that does not
 * validate is not used, but stays stored as it was (written back untouched), and a store that is
 * not readable at all is set aside under another key before anything is written, so nothing
 * stored is lost.
 */
import { PLAYERS_KINDS, type PlayersKind } from '../../replay/index.ts';
import type { ModelParams } from '../../engine/model-params.ts';
import type { OutcomeKind } from './parse-outcome.ts';

export const SETUPS_KEY = 'agentblame.replay-setups';
/** Where a stored text that cannot be read is moved before the first write. */
export const UNREADABLE_KEY = `${SETUPS_KEY}.unreadable`;
export const SETUPS_VERSION = 1;
/** Setups kept at most: the oldest saved make way (a tool or metric file may be large). */
export const MAX_KEPT_SETUPS = 40;

const OUTCOME_KINDS: readonly OutcomeKind[] = ['expect', 'judge', 'metric'];

/** A setup as kept: plain data. */
export interface KeptSetup {
  players: PlayersKind;
  /** Fix text by the turn's recorded step index. */
  fixes: Record<number, string>;
  outcomeKind: OutcomeKind;
  expect: string;
  rubric: string;
  metric: { fileName: string; source: string } | null;
  tools: { fileName: string; source: string; names: string[] } | null;
  models?: Record<string, string>;
  modelParams?: ModelParams;
  savedAt: string;
}

/** The storage it is kept in (the page's localStorage; tests give a map). */
export type SetupStorage = Pick<Storage, 'getItem' | 'setItem'>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isFile = (v: unknown): v is { fileName: string; source: string } => isObject(v) && typeof v.fileName === 'string' && typeof v.source === 'string';
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
const isTools = (v: unknown): v is { fileName: string; source: string; names: string[] } => isFile(v) && isStrings((v as Record<string, unknown>).names);
const isIds = (v: unknown): v is Record<string, string> => isObject(v) && Object.values(v).every((id) => typeof id === 'string');
const isParams = (v: unknown): v is Record<string, Record<string, unknown>> => isObject(v) && Object.values(v).every(isObject);

/** A kept setup read field by field, or null when any field is not what a setup keeps. */
export function readKeptSetup(value: unknown): KeptSetup | null {
  if (!isObject(value)) return null;
  const { players, fixes, outcomeKind, expect, rubric, metric, tools, models, modelParams, savedAt } = value;
  const kind = PLAYERS_KINDS.find((k) => k === players);
  const outcome = OUTCOME_KINDS.find((k) => k === outcomeKind);
  if (kind === undefined || outcome === undefined || typeof expect !== 'string' || typeof rubric !== 'string' || typeof savedAt !== 'string') return null;
  if (!isObject(fixes)) return null;
  const fixTexts: Record<number, string> = {};
  for (const [step, text] of Object.entries(fixes)) {
    if (!/^\d+$/.test(step) || typeof text !== 'string') return null;
    fixTexts[Number(step)] = text;
  }
  if (metric !== null && !isFile(metric)) return null;
  if (tools !== null && !isTools(tools)) return null;
  if (models !== undefined && !isIds(models)) return null;
  if (modelParams !== undefined && !isParams(modelParams)) return null;
  return {
    players: kind,
    fixes: fixTexts,
    outcomeKind: outcome,
    expect,
    rubric,
    metric: metric === null ? null : { fileName: metric.fileName, source: metric.source },
    tools: tools === null ? null : { fileName: tools.fileName, source: tools.source, names: [...tools.names] },
    ...(models !== undefined && { models: { ...models } }),
    ...(modelParams !== undefined && { modelParams: structuredClone(modelParams) }),
    savedAt,
  };
}

/** The setups of every run, by the run's key (its file and id), over a storage. */
export class KeptSetups {
  readonly #storage: SetupStorage | null;
  /** Why the last save failed (a full storage), or ''. */
  problem = '';

  constructor(storage: SetupStorage | null) {
    this.#storage = storage;
  }

  /** The stored entries as they are (valid or not), or null when the stored text cannot be read as a version-1 store. */
  #entries(): { entries: Record<string, unknown>; unreadable: string | null } {
    let text: string | null = null;
    try {
      text = this.#storage?.getItem(SETUPS_KEY) ?? null;
    } catch {
      return { entries: {}, unreadable: null };
    }
    if (text === null) return { entries: {}, unreadable: null };
    try {
      const parsed: unknown = JSON.parse(text);
      if (isObject(parsed) && parsed.version === SETUPS_VERSION && isObject(parsed.setups)) return { entries: { ...parsed.setups }, unreadable: null };
    } catch {
      // Not JSON: set aside below.
    }
    return { entries: {}, unreadable: text };
  }

  /** The run's kept setup, or null (none, or one that does not validate). */
  load(runKey: string): KeptSetup | null {
    const { entries } = this.#entries();
    return Object.hasOwn(entries, runKey) ? readKeptSetup(entries[runKey]) : null;
  }

  /** Keeps a run's setup (the oldest others make way past MAX_KEPT_SETUPS); false when the storage refused it. */
  save(runKey: string, setup: KeptSetup): boolean {
    if (!this.#storage) return false;
    const { entries, unreadable } = this.#entries();
    try {
      // A text this version cannot read (a newer version's, a hand edit) is kept aside, not overwritten.
      if (unreadable !== null) this.#storage.setItem(UNREADABLE_KEY, unreadable);
      entries[runKey] = setup;
      const dated = Object.entries(entries).map(([key, value]) => ({ key, at: isObject(value) && typeof value.savedAt === 'string' ? value.savedAt : '' }));
      dated.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      for (const { key } of dated.slice(MAX_KEPT_SETUPS)) if (key !== runKey) delete entries[key];
      this.#storage.setItem(SETUPS_KEY, JSON.stringify({ version: SETUPS_VERSION, setups: entries }));
      this.problem = '';
      return true;
    } catch (error) {
      this.problem = `The setup could not be kept in this browser (${error instanceof Error ? error.message : String(error)}); it stays as it is while this page is open.`;
      return false;
    }
  }
}
