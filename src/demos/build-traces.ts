/**
 * Writes public/demos/<name>.trace.json from each public/demos/<name>.pipeline.js (and, for demos
 * whose steps call a model, <name>.responses.jsonl: the test model's responses).
 *
 *   npx tsx src/demos/build-traces.ts           # (re)write every demo trace
 *   npx tsx src/demos/build-traces.ts --check   # exit 1 if any trace on disk is out of date
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toyAnswer } from '../engine/testing/toy-model.ts';
import { DEMOS, definitionFileName, responsesFileName, traceFileName } from './demo-catalog.ts';
import { buildDemoTrace, demoResponsesText } from './demo-trace.ts';
import { serializeTrace } from '../formats/index.ts';

const DEMO_DIRECTORY = resolve(dirname(fileURLToPath(import.meta.url)), '../../public/demos');

function main(argv: readonly string[]): number {
  const unknown = argv.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`build-traces: unknown argument ${unknown[0]} (only --check is accepted)\n`);
    return 2;
  }
  const check = argv.includes('--check');
  let stale = 0;
  for (const demo of DEMOS) {
    const definitionPath = join(DEMO_DIRECTORY, definitionFileName(demo));
    // Model-step demos are answered by the deterministic test model (the fake endpoint's).
    const built = buildDemoTrace(readFileSync(definitionPath, 'utf8'), definitionFileName(demo), demo.modelSteps ? toyAnswer : undefined);
    const files: [string, string][] = [[traceFileName(demo), serializeTrace(built.trace)]];
    if (demo.modelSteps) files.push([responsesFileName(demo), demoResponsesText(built.responses)]);
    for (const [name, text] of files) {
      const path = join(DEMO_DIRECTORY, name);
      const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
      if (current === text) {
        process.stdout.write(`${name}: up to date\n`);
      } else if (check) {
        stale++;
        process.stdout.write(`${name}: out of date\n`);
      } else {
        writeFileSync(path, text);
        process.stdout.write(`${name}: written (${text.length} bytes)\n`);
      }
    }
  }
  return stale > 0 ? 1 : 0;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  // Definition errors already name the file and step; one line is enough.
  process.stderr.write(`build-traces: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
