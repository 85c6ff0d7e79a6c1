/**
 * `npm run docs:cli`: rewrites the generated part of docs/cli.md (the command and flag tables)
 * from the flag table (flags.ts). flags.test.ts fails while the file differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliDocTables, GENERATED_HEADING, withGenerated } from './help.ts';

const path = join(import.meta.dirname, '../../docs/cli.md');
const text = readFileSync(path, 'utf8');
const next = withGenerated(text, cliDocTables());
if (next === null) throw new Error(`${path} has no "${GENERATED_HEADING}" heading to write the tables under`);
writeFileSync(path, next);
process.stdout.write(next === text ? 'docs/cli.md is current\n' : 'docs/cli.md rewritten from src/cli/flags.ts\n');
