/**
 * The command's model host (docs/model-steps.md): the response caches of `--cache`, the endpoint
 * of `--model-url` (with its key from `--api-key-env`), or neither. Built only when the analysis
 * first needs it, so studies without model steps never read a cache file.
 */
import { ModelHost } from '../model/model-host.ts';
import { endpointConfig, EndpointConfigError } from '../model/endpoint.ts';
import { CacheFileError, openCaches } from '../model/jsonl-cache.node.ts';
import type { ModelOptions } from './args.ts';

/** A model setting that cannot work (exit 2), e.g. an unset key variable or a broken cache file. */
export class ModelSetupError extends Error {
  override name = 'ModelSetupError';
}

export interface CommandModelHost {
  host: ModelHost;
  /** Lines for stderr (a torn cache line skipped, ...). */
  warnings: string[];
}

export function makeModelHost(options: ModelOptions, env: NodeJS.ProcessEnv = process.env): CommandModelHost {
  let apiKey: string | undefined;
  if (options.apiKeyEnv !== undefined) {
    apiKey = env[options.apiKeyEnv];
    // Never echo the value: only the variable's name.
    if (apiKey === undefined || apiKey === '') throw new ModelSetupError(`--api-key-env ${options.apiKeyEnv}: the environment variable is not set`);
  }
  let opened;
  try {
    opened = openCaches(options.caches);
  } catch (error) {
    if (error instanceof CacheFileError) throw new ModelSetupError(`--cache: ${error.message}`);
    throw error;
  }
  let endpoint;
  if (options.url !== undefined) {
    try {
      endpoint = endpointConfig({ baseUrl: options.url, apiKey, concurrency: options.concurrency });
    } catch (error) {
      if (error instanceof EndpointConfigError) throw new ModelSetupError(`--model-url: ${error.message}`);
      throw error;
    }
  }
  return { host: new ModelHost({ cache: opened.cache, endpoint, offline: options.offline }), warnings: opened.warnings };
}
