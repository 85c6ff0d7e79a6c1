import { existsSync } from 'node:fs';
import { endpointConfig, EndpointConfigError } from './endpoint.ts';
import { openCaches } from './jsonl-cache.node.ts';
import { ModelHost, type ModelProgress } from './model-host.ts';
import { FallbackResponseCache } from './fallback-cache.ts';
import type { CacheEntry } from './response-cache.ts';
import type { LocalModel } from './local-model.ts';

/** The command's model flags, as src/cli/args.ts parses them (ModelOptions there). */
export interface CommandModelFlags {
  /** Base URL of an OpenAI-compatible endpoint (`POST {url}/chat/completions`). */
  url?: string;
  /** Name of the environment variable holding the API key (the key itself is never stored). */
  apiKeyEnv?: string;
  concurrency: number;
  /** Response caches (JSONL): all are read, new responses are written to the first. */
  caches: string[];
  /** Send nothing: a response missing from the caches is a per-case error. */
  offline: boolean;
  /** --timeout-request S: the time limit of one request's attempt, in ms (default 60 000). */
  timeoutRequestMs?: number;
  /** --model-file FILE.gguf: a model file run in this process (node-llama-cpp), for the default alias. */
  modelFile?: string;
}

/**
 * The command's model host from its flags: the endpoint (`--model-url`, the key read from the
 * variable `--api-key-env` names, `--concurrency`), the `--cache` files and `--offline`. Null
 * when no flag asks for a model (model steps are then per-case errors saying what to pass).
 * Throws EndpointConfigError / CacheFileError with a message fit for the command's stderr; no
 * message ever holds the key. `warnings` are the caches' skipped lines. `carried` are the
 * responses a re-run session file brings (its `modelCache`): they answer only what the caches
 * lack and are never written to a cache file (FallbackResponseCache).
 */
export function commandModelHost(
  flags: CommandModelFlags,
  models: Record<string, string> | undefined,
  env: Record<string, string | undefined>,
  onProgress?: (progress: ModelProgress) => void,
  carried: readonly CacheEntry[] = [],
  onWarning?: (message: string) => void,
  /** The model file of --model-file, already opened (node-llama-model.node.ts). */
  local?: LocalModel,
): { host: ModelHost; warnings: string[] } | null {
  if (flags.url === undefined && flags.caches.length === 0 && !flags.offline && carried.length === 0 && local === undefined) {
    if (flags.apiKeyEnv !== undefined) throw new EndpointConfigError('--api-key-env: there is no --model-url to send the key to');
    return null;
  }
  let apiKey: string | undefined;
  if (flags.apiKeyEnv !== undefined) {
    apiKey = env[flags.apiKeyEnv];
    if (apiKey === undefined || apiKey === '') throw new EndpointConfigError(`--api-key-env: the environment variable ${flags.apiKeyEnv} is not set (or empty)`);
  }
  if (flags.timeoutRequestMs !== undefined && flags.url === undefined) throw new EndpointConfigError('--timeout-request: there is no --model-url to send requests to');
  const endpoint = flags.url === undefined ? undefined : endpointConfig({ baseUrl: flags.url, models, apiKey, concurrency: flags.concurrency, timeoutMs: flags.timeoutRequestMs });
  // Only the first cache is written, and only when requests can be sent: a file that is only read
  // and does not exist is a mistyped path, not an empty cache.
  flags.caches.forEach((file, k) => {
    const written = k === 0 && (endpoint !== undefined || local !== undefined) && !flags.offline;
    if (!written && !existsSync(file)) {
      const why = k > 0 ? 'only the first --cache is written, the others are read' : flags.offline ? 'with --offline nothing is written' : 'without --model-url or --model-file nothing is written';
      throw new EndpointConfigError(`--cache ${file}: no such file (${why}, so it must exist)`);
    }
  });
  const { cache, warnings } = openCaches(flags.caches);
  const host = new ModelHost({ cache: carried.length > 0 ? new FallbackResponseCache(cache, carried) : cache, endpoint, local, offline: flags.offline, onProgress, onWarning });
  return { host, warnings };
}
