/**
 * Writes public/demos/<name>.trace.json from each public/demos/<name>.pipeline.js.
 *
 *   npx tsx src/demos/build-traces.ts           # (re)write every demo trace
 *   npx tsx src/demos/build-traces.ts --check   # exit 1 if any trace on disk is out of date
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMOS, definitionFileName, traceFileName } from './demo-catalog.ts';
import { demoTraceText } from './demo-trace.ts';

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
    const tracePath = join(DEMO_DIRECTORY, traceFileName(demo));
    const text = demoTraceText(readFileSync(definitionPath, 'utf8'), definitionFileName(demo));
    const current = existsSync(tracePath) ? readFileSync(tracePath, 'utf8') : null;
    if (current === text) {
      process.stdout.write(`${traceFileName(demo)}: up to date\n`);
    } else if (check) {
      stale++;
      process.stdout.write(`${traceFileName(demo)}: out of date\n`);
    } else {
      writeFileSync(tracePath, text);
      process.stdout.write(`${traceFileName(demo)}: written (${text.length} bytes)\n`);
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
