/**
 * runtape's `why` for one model call, in eight steps, against an injected `Rerun` (the model host
 * in the command and the page, a simulated model in the tests):
 *  1. rerun the unchanged context for the base rate (under 1 in 5: nothing stable to attribute);
 *  2. remove each piece (system prompt, messages, tool results), 2 runs to screen, more where the
 *     rate moves (and twice as many where the drop is not yet clear);
 *  3. a one-sided Fisher exact test per variant, Holm-corrected over every variant tried;
 *  4. narrow confirmed pieces to JSON items, paragraphs, sentences;
 *  5. look inside pieces whose removal changed nothing (a cause next to content pushing the other way);
 *  6. pairs of the top suspects: both needed, or either enough;
 *  7. the headline is the narrowest confirmed piece that changes what the agent does; the other
 *     confirmed pieces that change it are "other causes", listed after it; pieces it needs only as
 *     input (without them it looks the data up again, or says nothing) are "also required";
 *  8. a whole-message headline is rerun with a second replacement text, flagged if it does not hold.
 */
import { fisherOneSided } from '../engine/stats/fisher-one-sided.ts';
import { holmAdjust } from '../engine/stats/holm.ts';
import { contains, isWholeMessage, type Piece, type PiecePath, type WhyMessage } from './context.ts';
import { decides, insteadOf, type Predicate, type Reply } from './decision.ts';
import { applyEdit, DEFAULT_FILL, narrower, topPieces, type Edit } from './pieces.ts';
import { removedVariant, type RerunVariant, UNCHANGED } from './variant.ts';
import { sharedWording, words } from './wording.ts';

/**
 * Replies of the model to a context, one per replicate index (replicate r is the r-th rerun, with
 * its own seed, the same for every variant: a variant's first runs are its screening runs).
 * `variant` says which change to the recorded context this is (for a log of the reruns; it never
 * changes the request).
 */
export type Rerun = (messages: readonly WhyMessage[], replicates: readonly number[], signal?: AbortSignal, variant?: RerunVariant) => Promise<Reply[]>;

export interface WhyOptions {
  /** Reruns per variant confirmed (and for the base rate). */
  runs: number;
  /** Reruns per variant screened. */
  screenRuns: number;
  /** At most this many reruns in all. */
  budget: number;
  /** The text that stands in for a whole message removed. */
  fill: string;
  /** The second replacement text of step 8. */
  secondFill: string;
  alpha: number;
  /** At most this many whole pieces are tested (ranked by shared wording; the system prompt, the task and the latest message always). */
  maxPieces: number;
  /** How many top suspects are paired in step 6. */
  suspects: number;
  /** How many unchanged pieces are looked inside in step 5. */
  lookInside: number;
  signal?: AbortSignal;
  onProgress?(progress: { calls: number; stage: string }): void;
}

export const WHY_DEFAULTS: Omit<WhyOptions, 'signal' | 'onProgress'> = {
  runs: 10,
  screenRuns: 2,
  budget: 250,
  fill: DEFAULT_FILL,
  secondFill: '(this part is not available)',
  alpha: 0.05,
  maxPieces: 80,
  suspects: 3,
  lookInside: 3,
};

/** A base rate under this is "nothing stable to attribute". */
export const MIN_BASE_RATE = 1 / 5;

export type PieceRole = 'headline' | 'other-cause' | 'also-required' | 'contains-headline' | 'no-effect' | 'screened';

export interface PieceResult {
  id: string;
  kind: Piece['kind'];
  path: PiecePath;
  text: string;
  parent: string | null;
  /** Reruns that made the decision with the piece removed, of n. */
  k: number;
  n: number;
  p: number;
  pAdjusted: number;
  role: PieceRole;
  /** What the agent does most often instead, with the piece removed. */
  instead: string | null;
}

export interface PairResult {
  a: string;
  b: string;
  kind: 'both-needed' | 'either-enough';
  k: number;
  n: number;
  p: number;
  pAdjusted: number;
}

export interface WhyResult {
  base: { k: number; n: number };
  /** False when the base rate is under 1 in 5: nothing stable to attribute. */
  stable: boolean;
  pieces: PieceResult[];
  pairs: PairResult[];
  /** The headline piece's id, or null. */
  headline: string | null;
  /** Step 8: the whole-message headline rerun with a second replacement text. */
  headlineCheck: { fill: string; k: number; n: number; p: number; holds: boolean } | null;
  /** Reruns made (cached answers included). */
  calls: number;
  budgetReached: boolean;
  /** Pieces not tested (over the cap of whole pieces). */
  skipped: string[];
  notes: string[];
}

interface Variant {
  key: string;
  edit: Edit;
  /** The change, as the reruns' log names it. */
  change: RerunVariant;
  replies: Reply[];
  piece?: Piece;
  pair?: [Piece, Piece];
}

class Search {
  calls = 0;
  budgetReached = false;
  readonly variants = new Map<string, Variant>();
  readonly base: Variant;
  readonly tested = new Map<string, Piece>();

  constructor(
    readonly messages: readonly WhyMessage[],
    readonly predicate: Predicate,
    readonly rerun: Rerun,
    readonly o: WhyOptions,
  ) {
    this.base = { key: 'base', edit: {}, change: UNCHANGED, replies: [] };
    this.variants.set('base', this.base);
  }

  k(v: Variant): number {
    return v.replies.filter((r) => decides(this.predicate, r)).length;
  }

  rate(v: Variant): number {
    return v.replies.length === 0 ? NaN : this.k(v) / v.replies.length;
  }

  p(v: Variant): number {
    return v.replies.length === 0 ? 1 : fisherOneSided(this.k(this.base), this.base.replies.length, this.k(v), v.replies.length);
  }

  /** Give each variant n replies (as many as the budget allows, in list order), all at once. */
  async ensure(list: readonly [Variant, number][], stage: string): Promise<void> {
    const jobs: Promise<void>[] = [];
    for (const [v, n] of list) {
      const have = v.replies.length;
      const want = Math.min(n, have + Math.max(0, this.o.budget - this.calls));
      if (want < n) this.budgetReached = true;
      if (want <= have) continue;
      const replicates = Array.from({ length: want - have }, (_, i) => have + i);
      this.calls += replicates.length;
      const context = applyEdit(this.messages, v.edit);
      jobs.push(
        this.rerun(context, replicates, this.o.signal, v.change).then((replies) => {
          if (replies.length !== replicates.length) throw new Error(`the rerun answered ${replies.length} of ${replicates.length} runs`);
          v.replies.push(...replies);
        }),
      );
    }
    await Promise.all(jobs);
    this.o.onProgress?.({ calls: this.calls, stage });
  }

  pieceVariant(piece: Piece): Variant {
    const key = `piece ${piece.id}`;
    let v = this.variants.get(key);
    if (!v) {
      v = { key, edit: { remove: [piece.path], fill: this.o.fill }, change: removedVariant([piece], this.o.fill), replies: [], piece };
      this.variants.set(key, v);
      this.tested.set(piece.id, piece);
    }
    return v;
  }

  /**
   * Steps 2 and 3 for a set of pieces: screen, confirm those whose rate moved, and run twice as
   * many where the drop is not yet clear. Returns the pieces whose drop is significant before correction.
   */
  async screenAndConfirm(pieces: readonly Piece[], stage: string): Promise<Piece[]> {
    const fresh = pieces.filter((p) => !this.tested.has(p.id));
    const variants = fresh.map((p) => this.pieceVariant(p));
    await this.ensure(variants.map((v) => [v, this.o.screenRuns]), `${stage}: screening`);
    const moved = variants.filter((v) => this.rate(v) < this.rate(this.base));
    await this.confirm(moved, stage);
    return variants.filter((v) => v.replies.length >= this.o.runs && this.p(v) < this.o.alpha).map((v) => v.piece!);
  }

  async confirm(moved: readonly Variant[], stage: string): Promise<void> {
    await this.ensure(moved.map((v) => [v, this.o.runs]), `${stage}: confirming`);
    // Where the drop looks real but is not clear yet (p between alpha/20 and 0.25), twice the runs, and the base with them.
    const unclear = moved.filter((v) => v.replies.length >= this.o.runs && this.p(v) < 0.25 && this.p(v) >= this.o.alpha / 20);
    if (unclear.length > 0) await this.ensure([[this.base, 2 * this.o.runs], ...unclear.map((v) => [v, 2 * this.o.runs] as [Variant, number])], `${stage}: more runs`);
  }

  /** Step 4: narrow confirmed pieces level by level while their parts confirm. */
  async narrow(confirmed: readonly Piece[], stage: string): Promise<void> {
    let level = confirmed;
    while (level.length > 0 && this.calls < this.o.budget) {
      const parts = level.flatMap((p) => narrower(this.messages, p));
      level = await this.screenAndConfirm(parts, stage);
    }
  }
}

/** Runs the method on one call's context. */
export async function explainDecision(messages: readonly WhyMessage[], predicate: Predicate, recorded: Reply, rerun: Rerun, options: Partial<WhyOptions> = {}): Promise<WhyResult> {
  const o: WhyOptions = { ...WHY_DEFAULTS, ...options };
  const s = new Search(messages, predicate, rerun, o);
  const notes: string[] = [];
  // 1. The base rate.
  await s.ensure([[s.base, o.runs]], 'base rate');
  const base = () => ({ k: s.k(s.base), n: s.base.replies.length });
  if (s.rate(s.base) < MIN_BASE_RATE) {
    notes.push(`nothing stable to attribute: the model made this decision in ${s.k(s.base)} of ${s.base.replies.length} reruns of the unchanged context (under 1 in 5)`);
    return { base: base(), stable: false, pieces: [], pairs: [], headline: null, headlineCheck: null, calls: s.calls, budgetReached: s.budgetReached, skipped: [], notes };
  }
  const decisionWords = words(decisionText(predicate, recorded));
  const byWording = (a: Piece, b: Piece) => sharedWording(b.text, decisionWords) - sharedWording(a.text, decisionWords) || a.text.length - b.text.length;
  // 2-3. Whole pieces, capped.
  const all = topPieces(messages);
  const { tested: tops, skipped } = capPieces(all, messages, o.maxPieces, byWording);
  const confirmed = await s.screenAndConfirm(tops, 'removing pieces');
  // 4. Narrowing.
  await s.narrow(confirmed, 'narrowing');
  // 5. Inside pieces whose removal changed nothing.
  const unchanged = tops.filter((p) => !confirmed.includes(p) && narrower(messages, p).length > 0).sort(byWording).slice(0, o.lookInside);
  if (unchanged.length > 0 && s.calls < o.budget) {
    const inside = await s.screenAndConfirm(unchanged.flatMap((p) => narrower(messages, p)), 'looking inside');
    await s.narrow(inside, 'looking inside');
  }
  // 6. Pairs of the top suspects.
  const pairs = await testPairs(s, byWording);
  // 3 (again): every variant tried, Holm-corrected.
  const family = [...s.variants.values()].filter((v) => v !== s.base && v.replies.length > 0);
  const adjusted = new Map(holmAdjust(family.map((v) => s.p(v))).map((q, i) => [family[i], q]));
  const significant = (v: Variant) => (adjusted.get(v) ?? 1) < o.alpha;
  // 7. The headline, the other causes and the pieces also required.
  const pieceVariants = family.filter((v) => v.piece);
  const sig = pieceVariants.filter(significant);
  const inputOnly = (v: Variant) => isInputOnly(messages, v.piece!, predicate, v.replies);
  const leaf = (v: Variant) => !sig.some((w) => w !== v && contains(v.piece!.path, w.piece!.path));
  const drop = (v: Variant) => s.rate(s.base) - s.rate(v);
  // Array sort is stable: between causes equal on every key the headline is the first tried (pieces
  // in context order, then their parts), so the same context and seed always give the same headline.
  const ranked = sig.filter((v) => !inputOnly(v)).sort((a, b) => Number(leaf(b)) - Number(leaf(a)) || sourceRank(messages, a.piece!) - sourceRank(messages, b.piece!) || drop(b) - drop(a) || s.p(a) - s.p(b) || b.piece!.depth - a.piece!.depth);
  const headline = ranked[0];
  const pieces: PieceResult[] = pieceVariants.map((v) => {
    const piece = v.piece!;
    let role: PieceRole;
    if (v === headline) role = 'headline';
    else if (significant(v)) role = headline && contains(piece.path, headline.piece!.path) ? 'contains-headline' : ranked.includes(v) ? 'other-cause' : 'also-required';
    else role = v.replies.length >= o.runs ? 'no-effect' : 'screened';
    return { id: piece.id, kind: piece.kind, path: piece.path, text: piece.text, parent: piece.parent, k: s.k(v), n: v.replies.length, p: s.p(v), pAdjusted: adjusted.get(v) ?? 1, role, instead: insteadOf(predicate, v.replies) };
  });
  const order: PieceRole[] = ['headline', 'other-cause', 'also-required', 'contains-headline', 'no-effect', 'screened'];
  pieces.sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role) || a.pAdjusted - b.pAdjusted || a.p - b.p);
  const pairResults: PairResult[] = [];
  for (const v of pairs) {
    if (!significant(v)) continue;
    const [a, b] = v.pair!;
    const alone = [a, b].map((x) => significant(s.pieceVariant(x)));
    const kind = alone[0] && alone[1] ? 'both-needed' : !alone[0] && !alone[1] ? 'either-enough' : null;
    if (kind) pairResults.push({ a: a.id, b: b.id, kind, k: s.k(v), n: v.replies.length, p: s.p(v), pAdjusted: adjusted.get(v)! });
  }
  // 8. A second replacement text for a whole-message headline.
  let headlineCheck: WhyResult['headlineCheck'] = null;
  if (headline && isWholeMessage(headline.piece!.path)) {
    const check: Variant = { key: 'second fill', edit: { remove: [headline.piece!.path], fill: o.secondFill }, change: removedVariant([headline.piece!], o.secondFill), replies: [] };
    await s.ensure([[check, Math.max(o.runs, headline.replies.length)]], 'second replacement text');
    if (check.replies.length > 0) {
      headlineCheck = { fill: o.secondFill, k: s.k(check), n: check.replies.length, p: s.p(check), holds: s.p(check) < o.alpha };
      if (!headlineCheck.holds) notes.push(`the headline does not hold with a second replacement text ("${o.secondFill}": ${headlineCheck.k} of ${headlineCheck.n}); the first text may itself have changed the decision`);
    }
  }
  if (!headline) notes.push(sig.length > 0 ? 'every confirmed piece is only needed as input; no piece changes what the agent does' : pairResults.length > 0 ? 'no single piece is a cause; see the pairs' : s.budgetReached ? 'no piece tested before the budget ran out is a significant cause of this decision' : 'no piece of the context is a significant cause of this decision');
  if (skipped.length > 0) notes.push(`${skipped.length} piece${skipped.length === 1 ? '' : 's'} not tested (over ${o.maxPieces}): ${skipped.slice(0, 10).join(', ')}${skipped.length > 10 ? ', ...' : ''}`);
  if (s.budgetReached) notes.push(`the budget of ${o.budget} reruns was reached: some variants have fewer runs than asked`);
  return { base: base(), stable: true, pieces, pairs: pairResults, headline: headline?.piece!.id ?? null, headlineCheck, calls: s.calls, budgetReached: s.budgetReached, skipped, notes };
}

/** The words of the decision: the tool and its arguments as recorded, or the text. */
export function decisionText(predicate: Predicate, recorded: Reply): string {
  if (predicate.tool === undefined) return recorded.text;
  const call = recorded.toolCalls.find((c) => c.name === predicate.tool);
  return `${predicate.tool.replace(/[_-]/g, ' ')} ${call?.arguments ?? ''}`;
}

/** Whole pieces to test: at most `max`, the system prompt, the first user message and the latest message always. */
function capPieces(all: Piece[], messages: readonly WhyMessage[], max: number, byWording: (a: Piece, b: Piece) => number): { tested: Piece[]; skipped: string[] } {
  if (all.length <= max) return { tested: all, skipped: [] };
  const firstUser = messages.findIndex((m) => m.role === 'user');
  const must = all.filter((p) => p.kind === 'system' || p.path.message === firstUser || p === all[all.length - 1]);
  const rest = all.filter((p) => !must.includes(p)).sort(byWording);
  const tested = [...must, ...rest.slice(0, Math.max(0, max - must.length))].sort((a, b) => a.path.message - b.path.message);
  return { tested, skipped: all.filter((p) => !tested.includes(p)).map((p) => p.id) };
}

/** Content from tools first, then the assistant's, the user's, the system prompt's (what a fix can act on). */
function sourceRank(messages: readonly WhyMessage[], piece: Piece): number {
  return ['tool', 'assistant', 'user', 'system'].indexOf(messages[piece.path.message]?.role ?? 'user');
}

/**
 * A piece only needed as input: without it the agent mostly looks the data up again (calls the
 * tool whose result it was) or says nothing, rather than doing something else.
 */
function isInputOnly(messages: readonly WhyMessage[], piece: Piece, predicate: Predicate, replies: readonly Reply[]): boolean {
  const other = replies.filter((r) => !decides(predicate, r));
  if (other.length === 0) return false;
  const source = messages[piece.path.message];
  const refetch = source?.role === 'tool' && source.name !== undefined ? source.name : undefined;
  const asInput = other.filter((r) => (r.toolCalls.length === 0 && r.text.trim() === '') || (refetch !== undefined && r.toolCalls.some((c) => c.name === refetch)));
  return asInput.length * 2 > other.length;
}

/** Step 6: pairs among the top suspects (confirmed leaves first, then by shared wording), screened then confirmed. */
async function testPairs(s: Search, byWording: (a: Piece, b: Piece) => number): Promise<Variant[]> {
  const tried = [...s.variants.values()].filter((v) => v.piece);
  const promising = tried.filter((v) => v.replies.length >= s.o.runs && s.p(v) < s.o.alpha);
  const leaves = promising.filter((v) => !promising.some((w) => w !== v && contains(v.piece!.path, w.piece!.path))).sort((a, b) => s.p(a) - s.p(b)).map((v) => v.piece!);
  const others = tried.map((v) => v.piece!).filter((p) => !leaves.includes(p) && !promising.some((v) => v.piece === p)).sort(byWording);
  const suspects: Piece[] = [];
  for (const p of [...leaves, ...others]) {
    if (suspects.length >= s.o.suspects) break;
    if (!suspects.some((q) => contains(q.path, p.path) || contains(p.path, q.path))) suspects.push(p);
  }
  const pairs: Variant[] = [];
  for (let i = 0; i < suspects.length; i++) {
    for (let j = i + 1; j < suspects.length; j++) {
      const [a, b] = [suspects[i], suspects[j]];
      const key = `pair ${a.id} ${b.id}`;
      const v: Variant = { key, edit: { remove: [a.path, b.path], fill: s.o.fill }, change: removedVariant([a, b], s.o.fill), replies: [], pair: [a, b] };
      s.variants.set(key, v);
      pairs.push(v);
    }
  }
  if (s.calls >= s.o.budget) return pairs;
  await s.ensure(pairs.map((v) => [v, s.o.screenRuns]), 'pairs: screening');
  await s.confirm(pairs.filter((v) => s.rate(v) < s.rate(s.base)), 'pairs');
  return pairs;
}
