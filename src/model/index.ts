/**
 * The model host (docs/model-host.md): the public API of `src/model/` for any host, the page's and
 * the command's. Other folders import the feature only from here, or from `index.node.ts` for what
 * needs Node (the command's host and its JSONL caches); src/architecture.test.ts enforces it.
 *
 * `endpointConfig` checks an endpoint's settings; `ModelHost` answers a pool's pending model
 * requests (queue, concurrency, retries, time limit, response cache, progress); `sendChat` sends
 * one chat request; `MemoryResponseCache` and `validateCacheEntry` keep and check responses.
 */
export { sendChat } from './connector.ts';
export { maskKey, ModelEndpointError } from './endpoint-error.ts';
export { endpointConfig, type EndpointConfig, type EndpointInput } from './endpoint.ts';
export { type AsyncResponseStore, type HostRequest, ModelHost, type ModelHostOptions, type ModelProgress, type RequestRecord } from './model-host.ts';
export { type CacheEntry, MemoryResponseCache } from './response-cache.ts';
export { unusableAnswer } from './unusable-answer.ts';
export { validateCacheEntry } from './validate-cache-entry.ts';
// Model files run here instead of an endpoint (the page's in-page model, the command's --model-file).
export { cutAtStop, LOCAL_CONTEXT_TOKENS, localCompletion, localResponse, type LocalModel, modelFileHash, modelFileId } from './local-model.ts';
export { ggufSizeProblem } from './gguf-check.ts';
