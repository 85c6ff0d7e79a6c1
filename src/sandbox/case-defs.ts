import type { CaseDef } from '../engine/types.ts';
import { DefinitionError } from './definition-error.ts';
import { copyPlainData, PlainDataError } from './plain-data.ts';

/**
 * The `cases` of a definition, copied out of the sandbox as plain, checked CaseDefs (DESIGN 4.2
 * fields). `where` prefixes every message, e.g. `pipeline.js`.
 */
export function copyCaseDefs(value: unknown, where: string): CaseDef[] {
  if (value === undefined) return [];
  let data: unknown;
  try {
    data = copyPlainData(value, 'cases');
  } catch (error) {
    throw new DefinitionError(`${where}: ${error instanceof PlainDataError ? error.message : String(error)}`);
  }
  if (!Array.isArray(data)) throw new DefinitionError(`${where}: cases must be an array of { id, inputs, seed? }`);
  const seen = new Set<string>();
  return data.map((raw, index) => {
    const label = `${where}: cases[${index}]`;
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new DefinitionError(`${label} must be an object { id, inputs, seed? }`);
    }
    const entry = raw as Record<string, unknown>;
    if (typeof entry.id !== 'string' || entry.id === '') throw new DefinitionError(`${label}: id must be a non-empty string`);
    const named = `${where}: case "${entry.id}"`;
    if (seen.has(entry.id)) throw new DefinitionError(`${named} appears twice; case ids must be unique`);
    seen.add(entry.id);
    const caseDef: CaseDef = { id: entry.id, inputs: checkRecord(entry.inputs ?? {}, `${named}: inputs`) };
    if (entry.seed !== undefined) {
      if (typeof entry.seed !== 'number' || !Number.isSafeInteger(entry.seed) || entry.seed < 0) {
        throw new DefinitionError(`${named}: seed must be a non-negative integer`);
      }
      caseDef.seed = entry.seed;
    }
    if (entry.observed !== undefined) caseDef.observed = checkObserved(entry.observed, `${named}: observed`);
    if (entry.outputs !== undefined) caseDef.outputs = checkRecord(entry.outputs, `${named}: outputs`);
    if (entry.score !== undefined) {
      if (typeof entry.score !== 'number' || !Number.isFinite(entry.score)) {
        throw new DefinitionError(`${named}: score must be a finite number`);
      }
      caseDef.score = entry.score;
    }
    return caseDef;
  });
}

function checkRecord(value: unknown, label: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new DefinitionError(`${label} must be an object`);
  }
  return value as Record<string, unknown>;
}

/** `{ step: { key: choice } }`, the factual choices posterior mode abducts from. */
function checkObserved(value: unknown, label: string): Record<string, Record<string, string>> {
  const steps = checkRecord(value, label);
  for (const [step, choices] of Object.entries(steps)) {
    const byKey = checkRecord(choices, `${label}.${step}`);
    for (const [key, choice] of Object.entries(byKey)) {
      if (typeof choice !== 'string') throw new DefinitionError(`${label}.${step}.${key} must be a string (the chosen option)`);
    }
  }
  return steps as Record<string, Record<string, string>>;
}
