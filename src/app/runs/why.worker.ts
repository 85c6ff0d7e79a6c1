/**
 * The why worker: runs the method (src/why/method.ts) and the fixes off the page's thread. Every
 * rerun is asked of the page through `rerun` (a Comlink proxy), whose model host sends, caches and
 * counts the requests; terminating the worker cancels the run.
 */
import * as Comlink from 'comlink';
import { type WhyMessage, type Predicate, type Reply, type RerunVariant, tryFixes, type Fix, type FixResult, explainDecision, type WhyOptions, type WhyResult } from '../../why/index.ts';

/** A rerun asked of the page, with the change to the context it is (for the page's list of reruns). */
type PageRerun = (messages: WhyMessage[], replicates: number[], variant?: RerunVariant) => Promise<Reply[]>;

const api = {
  explain(messages: WhyMessage[], predicate: Predicate, recorded: Reply, options: Partial<Omit<WhyOptions, 'signal' | 'onProgress'>>, rerun: PageRerun, onProgress: (p: { calls: number; stage: string }) => void): Promise<WhyResult> {
    return explainDecision(messages, predicate, recorded, (m, r, _signal, variant) => rerun([...m], [...r], variant), { ...options, onProgress });
  },
  fixes(messages: WhyMessage[], predicate: Predicate, base: { k: number; n: number }, fixes: Fix[], rerun: PageRerun, runs: number): Promise<FixResult[]> {
    return tryFixes(messages, predicate, base, fixes, (m, r, _signal, variant) => rerun([...m], [...r], variant), { runs });
  },
};

export type WhyWorkerApi = typeof api;
Comlink.expose(api);
