/**
 * Entry of the packed command, `agentblame` (the package's bin): bundled with its analysis worker
 * into dist-command/ when the package is packed (scripts/pack-command.mjs, docs/cli.md).
 */
import { main } from './main.ts';
import { runCommand } from './run-command.mjs';

await runCommand(() => main(process.argv.slice(2)));
