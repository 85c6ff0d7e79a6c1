import { parseInputFile } from '../../formats/detect.ts';
import { buildReplay, type ReplayDefinition } from '../index.ts';
import { runtapeLog } from './runtape-log.ts';

/** The replay of a synthetic runtape log of `turns` turns, every model turn one player: a chain of turns/2 requests. */
export function runtapeReplay(turns: number): ReplayDefinition {
  const input = parseInputFile(runtapeLog(turns), 'chain.jsonl');
  if (input.kind !== 'runs') throw new Error('not runs');
  return buildReplay(input.runs.runs, { players: 'agents', fixes: [], outcome: { kind: 'expect', text: 'refund approved' }, origin: 'test' });
}
