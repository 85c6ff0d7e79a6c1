/**
 * Serves the replay example's scripted model (runs.ts) as an OpenAI-compatible endpoint, for the
 * README's worked example of `--replay` (not a real LLM: it knows 6 x 7 and who to believe).
 *
 *   npx tsx src/replay/testing/serve-replay-example.ts [PORT]      (default 8090)
 *
 * Prints the base URL on its first line, then runs until stopped.
 */
import { startFakeEndpoint } from '../../model/testing/fake-endpoint.ts';
import { scriptedModel } from './runs.ts';

const port = Number(process.argv[2] ?? 8090);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(`expected a port number, got ${process.argv[2]}\n`);
  process.exit(2);
}
void startFakeEndpoint({ answer: scriptedModel, port, models: ['gpt-test', 'fake-model'] }).then((e) => process.stdout.write(`${e.url}\n`));
