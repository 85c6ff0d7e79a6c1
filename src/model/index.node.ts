/**
 * What the model host has for Node only: the command's host (`commandModelHost`, its flags) and
 * the JSONL response caches it reads and writes. The rest of the feature is in `index.ts`.
 */
export { commandModelHost, type CommandModelFlags } from './command-host.node.ts';
export { openCaches, readCacheFile } from './jsonl-cache.node.ts';
export { nodeLlamaModel, type LlamaContext, type LlamaModel, type LlamaSequence } from './node-llama-model.node.ts';
