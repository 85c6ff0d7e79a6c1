/**
 * `--dry`: suspects ranked by the wording they share with the decision, with no model call (the
 * order why tests pieces in when there are too many, and a first look before paying for reruns).
 */
import type { Piece, WhyMessage } from './context.ts';
import type { Predicate, Reply } from './decision.ts';
import { decisionText } from './method.ts';
import { narrower, topPieces } from './pieces.ts';
import { sharedWording, words } from './wording.ts';

export interface DrySuspect extends Omit<Piece, 'depth'> {
  /** Words of the decision the piece shares. */
  score: number;
}

/** Every piece down to sentences (at most `limit`), those sharing wording with the decision, best first. */
export function dryRanking(messages: readonly WhyMessage[], predicate: Predicate, recorded: Reply, limit = 2000): DrySuspect[] {
  const decisionWords = words(decisionText(predicate, recorded));
  const all: Piece[] = [];
  const queue = topPieces(messages);
  while (queue.length > 0 && all.length < limit) {
    const piece = queue.shift()!;
    all.push(piece);
    queue.push(...narrower(messages, piece));
  }
  return all
    .map((p) => ({ id: p.id, kind: p.kind, path: p.path, text: p.text, parent: p.parent, score: sharedWording(p.text, decisionWords), depth: p.depth }))
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score || b.depth - a.depth || a.text.length - b.text.length)
    .map(({ depth: _depth, ...rest }) => rest);
}
