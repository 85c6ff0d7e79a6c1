import type { CaseDef } from '../engine/types.ts';

/**
 * Cases per stored chunk. Every `put` structured-clones its record on the page's main thread in
 * the task that issues it; the 10 000 cases (50 MB) of the large trace in one record made a single
 * task of about a second (bench/README.md, "Page speed"). 64 cases of the large trace (about 5 KB
 * each) clone in a few milliseconds.
 */
export const CASES_PER_CHUNK = 64;

/** One stored slice of a session's cases (store `inputChunks`, key [sessionId, index]). */
export interface CaseChunkRecord {
  sessionId: string;
  index: number;
  cases: CaseDef[];
}

/** The cases cut into consecutive chunks of at most `size` (none for no cases). */
export function chunkCases(sessionId: string, cases: readonly CaseDef[], size = CASES_PER_CHUNK): CaseChunkRecord[] {
  const chunks: CaseChunkRecord[] = [];
  for (let start = 0; start < cases.length; start += size) chunks.push({ sessionId, index: chunks.length, cases: cases.slice(start, start + size) });
  return chunks;
}

/** The key range holding every chunk of one session. */
export function chunksRange(sessionId: string): IDBKeyRange {
  return IDBKeyRange.bound([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER]);
}

/**
 * The cases back from their chunks, in order. Throws when chunks are missing (the inputs record
 * says how many there are), naming the session, rather than opening it with cases left out.
 */
export function joinChunks(sessionId: string, expected: number, chunks: readonly CaseChunkRecord[]): CaseDef[] {
  const ordered = [...chunks].sort((a, b) => a.index - b.index);
  if (ordered.length !== expected || ordered.some((chunk, i) => chunk.index !== i)) {
    throw new Error(`The stored cases of session "${sessionId}" are incomplete: ${ordered.length} of ${expected} parts were found.`);
  }
  const cases: CaseDef[] = [];
  for (const chunk of ordered) for (const caseDef of chunk.cases) cases.push(caseDef);
  return cases;
}
