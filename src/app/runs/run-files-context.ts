import type { RunsKeeper } from './runs-keeper.svelte.ts';

/**
 * The kept trace files, through Svelte context under RUN_FILES_CONTEXT: the landing page's list
 * (src/app/sessions/StoredRunFiles.svelte) reads, reopens and removes them through the keeper.
 */
export const RUN_FILES_CONTEXT = 'agentblame:run-files';

export type RunFilesContext = Pick<RunsKeeper, 'store' | 'reopen'>;
