// A stand-in page analysis worker for waiting-rounds.test.ts: a Node worker thread that analyses
// cases with the real sandbox and, asked to wait, blocks on its wait buffer for each response it
// lacks (wait-channel.ts), as src/app/analysis/analysis.worker.ts does in the browser.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const Comlink = await import('comlink');
const { analyzeSourceCaseRound } = await import('../../../sandbox/analyze-source.ts');
const { waitingResolver } = await import('../wait-channel.ts');

const { port, buffer, source, fileName } = workerData;
const analyzeCase = (caseDef, settings, _watch, answers, waiting) => {
  const resolveWaiting = waiting && buffer ? waitingResolver(buffer, (message) => port.postMessage(message), { error: null }) : undefined;
  const round = analyzeSourceCaseRound(source, caseDef, settings, new Map(Object.entries(answers ?? {})), {}, fileName, resolveWaiting ? { resolveWaiting } : {});
  return round.kind === 'pending' ? { pending: round.requests } : round.result;
};
Comlink.expose(
  {
    load: () => ({ ok: true, summary: { name: 'stand-in', steps: [], cases: [], threshold: 1 } }),
    analyzeCase,
    analyzeCases: (caseDefs, settings) => {
      caseDefs.forEach((caseDef, position) => port.postMessage({ agentblameCaseDone: position, outcome: analyzeCase(caseDef, settings) }));
      return caseDefs.length;
    },
    analyzeGame: () => {
      throw new Error('not used');
    },
  },
  port,
);
