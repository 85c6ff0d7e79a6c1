import type { CaseDef } from '../../engine/types.ts';
import type { TableGame } from '../../formats/game.ts';
import type { OpenedInput } from '../../session/opened-input.ts';
import type { ImportOutcome } from './import-protocol.ts';

/** Splits what an importer returned into the summary the page gets first and the bulk it pulls later. */
export function summarizeParsed(input: OpenedInput): { outcome: ImportOutcome; cases: CaseDef[]; games: TableGame[] } {
  switch (input.kind) {
    case 'trace':
      return {
        outcome: {
          ok: true,
          kind: 'trace',
          ...(input.trace.pipeline ? { name: input.trace.pipeline.name, pipeline: input.trace.pipeline } : {}),
          caseCount: input.trace.cases.length,
          gameCount: 0,
        },
        cases: input.trace.cases,
        games: [],
      };
    case 'game':
      return { outcome: { ok: true, kind: 'game', caseCount: 0, gameCount: input.game.games.length }, cases: [], games: input.game.games };
    case 'pipeline':
      return {
        outcome: { ok: true, kind: 'pipeline', pipeline: { name: pipelineName(input.source), source: input.source }, caseCount: 0, gameCount: 0 },
        cases: [],
        games: [],
      };
    case 'runs':
      return { outcome: { ok: true, kind: 'runs', runs: input.runs, caseCount: 0, gameCount: 0 }, cases: [], games: [] };
    case 'predictions':
      return { outcome: { ok: true, kind: 'predictions', predictions: input.predictions, caseCount: 0, gameCount: 0 }, cases: [], games: [] };
    case 'session':
      return { outcome: { ok: true, kind: 'session', name: input.session.name, session: input.session, caseCount: 0, gameCount: 0 }, cases: [], games: [] };
  }
}

/** The definition's `name: "..."`, read without running it (the sandbox reads it properly later). */
function pipelineName(source: string): string {
  return /\bname\s*:\s*["'`]([^"'`\n]{1,80})["'`]/.exec(source)?.[1] ?? 'pipeline';
}
