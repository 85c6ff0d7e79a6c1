/**
 * Every real run in ../shared/samples (beside the repository) becomes a replay definition that the
 * sandbox compiles, with its turns, players and quoted outputs: a run of any supported format can
 * be blamed. Skipped when the samples are absent (a fresh clone).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInputFile } from '../formats/detect.ts';
import { sharedSamplesDir } from '../formats/test-helpers.ts';
import { describeSource } from '../sandbox/analyze-source.ts';
import { buildReplay, ReplayPlanError, turnLinks } from './index.ts';

const SAMPLES = sharedSamplesDir() ?? '';
const present = SAMPLES !== '';

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : /\.(json|jsonl)$/.test(name) ? [join(dir, name)] : []));
}

describe.skipIf(!present)('replay definitions of the sample runs', () => {
  if (!present) it.skip('../shared/samples is absent: nothing to replay', () => {});
  // Who&When: a few logs of each group (all 184 take minutes and add nothing here).
  const files = present ? walk(SAMPLES).filter((f) => !f.includes('/whowhen/') || /\/(1|2|3)\.json$/.test(f)) : [];
  it('every run with a model or tool call compiles as a definition of one step per player', () => {
    let replayed = 0;
    for (const file of files) {
      let input;
      try {
        input = parseInputFile(readFileSync(file, 'utf8'), file.split('/').slice(-2).join('/'));
      } catch {
        continue; // files of other kinds (predictions, licences) and ones the importers refuse are tested elsewhere
      }
      if (input.kind !== 'runs') continue;
      for (const run of input.runs.runs) {
        let def;
        try {
          def = buildReplay([run], { players: 'steps', fixes: [], outcome: { kind: 'expect', text: 'x' }, origin: file });
        } catch (e) {
          // A run without a model call (a lone tool span) has nothing to replay: a clear refusal.
          expect(e).toBeInstanceOf(ReplayPlanError);
          continue;
        }
        const summary = describeSource(def.source, 'replay.js');
        expect(summary.steps.map((s) => s.name)).toEqual(def.steps);
        expect(turnLinks(def.runs[0]).every((l, i) => l.dependsOn.every((j) => j < i))).toBe(true);
        replayed++;
      }
    }
    expect(replayed).toBeGreaterThan(25);
  });
});
