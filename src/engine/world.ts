import { hash53, hash53Address, hashWithSeed, seedLanes } from './hash.ts';

/** Separator that cannot occur inside a JSON-ish name by accident. */
const SEP = '\u0000';

/** The seed of a case's factual world: its own seed, or a hash of its id. */
export function caseWorldSeed(caseId: string, seed: number | undefined): number {
  return seed !== undefined ? seed : hash53(`case${SEP}${caseId}`);
}

/** World w of a posterior or prior ensemble derived from a case's seed (never equal to the case's own). */
export function ensembleWorldSeed(caseSeed: number, mode: 'posterior' | 'prior', w: number): number {
  return hashWithSeed(`${mode}${SEP}${w}`, caseSeed);
}

/** Address of one draw: (step, key, option) hashed under the world seed. */
export function drawHash(worldSeed: number, step: string, key: string, option: string): number {
  const [lo, hi] = seedLanes(worldSeed);
  return hash53Address(step, key, option, lo, hi);
}
