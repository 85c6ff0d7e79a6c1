/**
 * Serve the deterministic test model as an OpenAI-compatible endpoint, for the README's worked
 * example, the demo and the page's e2e (not a real LLM: see fake-model.ts for its rules).
 *
 *   npx tsx src/model/testing/serve-fake-endpoint.ts [--port 8089] [--latency MS] [--model ID]...
 *
 * Prints the base URL (`http://127.0.0.1:PORT/v1`) on its first line, then runs until stopped.
 */
import { startFakeEndpoint } from './fake-endpoint.ts';

function parse(argv: string[]): { port: number; latencyMs: number; models: string[] } {
  let port = 8089;
  let latencyMs = 0;
  const models: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag}: needs a value`);
    if (flag === '--port') port = Number(value);
    else if (flag === '--latency') latencyMs = Number(value);
    else if (flag === '--model') models.push(value);
    else throw new Error(`unknown option ${flag} (expected --port N, --latency MS, --model ID)`);
  }
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: expected a port number, got ${port}`);
  if (!(latencyMs >= 0)) throw new Error(`--latency: expected milliseconds (0 or more), got ${latencyMs}`);
  return { port, latencyMs, models: models.length ? models : ['fake-model'] };
}

try {
  const options = parse(process.argv.slice(2));
  const endpoint = await startFakeEndpoint(options);
  console.log(endpoint.url);
  console.error(`fake model endpoint (deterministic test model, not an LLM), models: ${options.models.join(', ')}; Ctrl-C to stop`);
  const stop = () => void endpoint.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(`serve-fake-endpoint: ${(error as Error).message}`);
  process.exit(2);
}
