/**
 * Warming a fresh page worker's engine while it waits for its first definition. A new page starts
 * its analysis workers with the engine's code cold: V8 compiles the hot paths (replay, the sandbox's
 * copies, draws, Shapley, packing the coalition table) during the first analysis, on the worker and
 * on its background compiler threads, about a third of a small study's CPU (bench/README.md, "Speed
 * round 5"). Here the worker analyses a small built-in study of its own, one case per task, and stops
 * at the first call from the page, so the user's first analysis runs on compiled code and waits at
 * most one small case for it. Nothing of it is kept or shown.
 */
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import type { AnalysisSettings, CaseDef } from '../../engine/types.ts';
import { factualRun } from '../../engine/factual-run.ts';
import { splitCoalitions } from '../../engine/packed-coalitions.ts';
import { compileChecked } from '../../sandbox/analyze-source.ts';
import { runCaseRound } from './case-round.ts';

/** Cases analysed at most: enough for V8 to optimise the engine's hot functions (each case runs them thousands of times). */
export const WARM_UP_CASES = 64;

export const WARM_UP_FILE = 'agentblame-warm-up.pipeline.js';

/**
 * A small ticket desk in five sampled and plain steps, written for the warm-up (the same kinds of
 * steps, draws and outputs as the demos, none of their code): about half its cases fail.
 */
export const WARM_UP_SOURCE = `
const QUEUES = ["billing", "access", "outage", "refund"];
function triageWith(sharpness) {
  return ({ ticket, urgency }, noise) => {
    const scores = {};
    for (const queue of QUEUES) scores[queue] = queue === ticket.queue ? sharpness - urgency : 0;
    return { queue: noise.categorical(scores, "queue"), urgent: noise.bernoulli(urgency, "urgent") };
  };
}
function lookupWith(recall) {
  return ({ triage, ticket }, noise) => {
    const found = triage.queue === ticket.queue && noise.uniform("recall") < recall;
    return { article: found ? ticket.queue + "#" + ticket.topic : null, tries: 1 + noise.int(3, "tries") };
  };
}
function draftWith(care) {
  return ({ lookup, ticket }, noise) => {
    const right = lookup.article !== null && noise.categorical({ right: care, wrong: 0 }, "tone") === "right";
    return { text: right ? "See " + lookup.article + " for " + ticket.topic + "." : "Please try again later.", right };
  };
}
function reviewWith(strict) {
  return ({ draft }, noise) => (draft.right || noise.bernoulli(strict, "catch") ? { verdict: "send", text: draft.text } : { verdict: "hold", text: null });
}
export default {
  name: "warm-up",
  steps: [
    { name: "triage", inputs: ["ticket", "urgency"], cost: 1, run: triageWith(1.5), fixes: [{ name: "sharper", cost: 2, run: triageWith(4) }] },
    { name: "lookup", inputs: ["triage", "ticket"], cost: 2, run: lookupWith(0.6), fixes: [{ name: "index", cost: 3, run: lookupWith(0.95) }] },
    { name: "draft", inputs: ["lookup", "ticket"], cost: 2, run: draftWith(0.5), fixes: [{ name: "careful", cost: 3, run: draftWith(3) }] },
    { name: "review", inputs: ["draft"], cost: 1, run: reviewWith(0.2), fixes: [{ name: "strict", cost: 1, run: reviewWith(0.8) }] },
    { name: "send", inputs: ["review", "urgency"], cost: 1, run: ({ review, urgency }) => ({ sent: review.verdict === "send", late: urgency > 0.7 && review.text === null }), fixes: [{ name: "same", cost: 1, run: ({ review }) => ({ sent: review.verdict === "send", late: false }) }] },
  ],
  metric: (outputs) => (outputs.send.sent && outputs.draft.right ? 1 : 0),
};
`;

const TOPICS = ['invoice', 'password', 'status page', 'return window', 'vat', 'sso'];

/** The warm-up's cases: tickets over every queue and topic, spread urgencies, a seed each. */
export function warmUpCases(count = WARM_UP_CASES): CaseDef[] {
  const queues = ['billing', 'access', 'outage', 'refund'];
  return Array.from({ length: count }, (_, i) => ({
    id: `warm-${i}`,
    inputs: { ticket: { queue: queues[i % queues.length], topic: TOPICS[i % TOPICS.length] }, urgency: ((i * 7) % 10) / 10 },
    seed: 1000 + i,
  }));
}

/**
 * A warm-up case as a trace records it: its factual outputs and the choices its draws made (what
 * the demos and imported traces carry), so the warm-up also runs the engine's checks of a record
 * and its abduction of the observed choices.
 */
export function recordedWarmUpCase(caseDef: CaseDef): CaseDef {
  const run = factualRun(compileChecked(WARM_UP_SOURCE, WARM_UP_FILE, { cases: 'skip' }), caseDef);
  return { ...caseDef, outputs: run.outputs, observed: run.observed };
}

/**
 * Runs the warm-up, one case per `nextTask` (the host's way to yield to its message queue), until
 * every case ran or `stop` is called; `done` settles with how many cases ran. A case analyses as
 * the page's worker analyses one (default settings, the coalition table packed for the page).
 */
export function startWarmUp(nextTask: () => Promise<void>, cases: readonly CaseDef[] = warmUpCases(), settings: AnalysisSettings = DEFAULT_SETTINGS): { stop(): void; done: Promise<number> } {
  let stopped = false;
  const done = (async () => {
    let ran = 0;
    try {
      for (const caseDef of cases) {
        await nextTask();
        if (stopped) break;
        const round = runCaseRound(WARM_UP_SOURCE, WARM_UP_FILE, recordedWarmUpCase(caseDef), settings, undefined);
        if (round.kind === 'result') splitCoalitions(round.result);
        ran += 1;
      }
    } catch {
      // A warm-up that fails only leaves the engine colder: never a rejection the worker would
      // charge to the page's next case (analysis.worker.ts's unhandled-rejection report).
    }
    return ran;
  })();
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}
