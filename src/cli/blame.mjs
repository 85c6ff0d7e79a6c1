#!/usr/bin/env node
// Entry of `npm run blame`: load the TypeScript command through tsx and exit with its status.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`blame: internal error: ${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 3;
}
