/** The replay launcher, offered to the study's views through Svelte context under REPLAY_CONTEXT (links back to the run). */
export const REPLAY_CONTEXT = 'agentblame:replay';
