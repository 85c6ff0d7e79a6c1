/**
 * Serve the real test model (stories260K, through node-llama-cpp) as an OpenAI-compatible loopback
 * endpoint, for trying model steps against a real model by hand or from the page:
 *
 *   npx tsx bench/real-model/serve-real-model.ts [--port 8090]
 *
 * Installs node-llama-cpp on demand (see install.ts); prints the base URL on its first line.
 */
import { existsSync } from 'node:fs';
import { ensureNodeLlamaCpp, moduleDir, modelPath } from './install.ts';
import { startRealEndpoint } from './llama-endpoint.ts';

const portFlag = process.argv.indexOf('--port');
const port = portFlag >= 0 ? Number(process.argv[portFlag + 1]) : 0;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`serve-real-model: --port: expected a port number, got ${process.argv[portFlag + 1]}`);
  process.exit(2);
}
const gguf = modelPath();
if (!existsSync(gguf)) {
  console.error(`serve-real-model: ${gguf} is absent (set REAL_MODEL_GGUF to a GGUF file)`);
  process.exit(2);
}
ensureNodeLlamaCpp(moduleDir());
const endpoint = await startRealEndpoint(moduleDir(), gguf, 'stories260K', port);
console.log(endpoint.url);
console.error(`real model ${gguf} as model id "${endpoint.modelId}", one request at a time; Ctrl-C to stop`);
const stop = () => void endpoint.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
