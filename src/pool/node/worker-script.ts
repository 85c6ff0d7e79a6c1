import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundledEntry, projectRootFrom } from './bundle-cache.mjs';

/** How to start an analysis worker thread. */
export interface WorkerScript {
  url: URL;
  execArgv?: string[];
}

let resolved: WorkerScript | undefined;

/**
 * Set (by esbuild's `define`) only in the packed command (scripts/pack-command.mjs): its worker is
 * bundled beside it at pack time, and there is no project to bundle from.
 */
declare const AGENTBLAME_PACKED: boolean | undefined;

/**
 * The analysis worker's entry. Worker threads cannot load TypeScript by themselves, and loading
 * it through tsx costs about half a second per worker, so the worker and its imports (engine,
 * sandbox, SES) are bundled once with esbuild into a single cached ES module (see
 * bundle-cache.mjs); a worker then starts in about 100 ms. Falls back to the tsx bootstrap when
 * esbuild is not installed. The root is found by name, so this also works from inside the
 * command's own bundle.
 */
export function analysisWorkerScript(): WorkerScript {
  if (resolved) return resolved;
  if (typeof AGENTBLAME_PACKED !== 'undefined' && AGENTBLAME_PACKED) {
    resolved = { url: new URL('./analysis-worker.mjs', import.meta.url) };
    return resolved;
  }
  const root = projectRootFrom(import.meta.url);
  const url = bundledEntry(root, 'workers/analysis.node.ts', 'analysis-worker');
  resolved = { url: url ?? pathToFileURL(join(root, 'workers/analysis.node.bootstrap.mjs')) };
  return resolved;
}
