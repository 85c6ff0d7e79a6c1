import type { CaseDef } from '../engine/types.ts';
import { FormatError } from '../formats/format-error.ts';
import { parseCaseList } from '../formats/trace.ts';
import { DefinitionError } from './definition-error.ts';
import { copyPlainData, PlainDataError } from './plain-data.ts';

/**
 * The `cases` of a definition, copied out of the sandbox as plain data and checked by the same
 * rules as a trace's cases (parseCaseList, docs/formats.md, "Trace files"). `where` prefixes every message, e.g.
 * `pipeline.js: cases[2].inputs: missing (expected an object)`.
 */
export function copyCaseDefs(value: unknown, where: string): CaseDef[] {
  if (value === undefined) return [];
  try {
    // Copied first: the checks then read plain data, never the sandbox's getters or proxies.
    return parseCaseList(copyPlainData(value, 'cases'), 'cases');
  } catch (error) {
    const known = error instanceof PlainDataError || error instanceof FormatError;
    throw new DefinitionError(`${where}: ${known ? error.message : String(error)}`);
  }
}
