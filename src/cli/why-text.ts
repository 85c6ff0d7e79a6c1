/** The text the command prints for `--why`, `--why --dry` and `--check`. */
import type { PiecePath, DrySuspect, FixResult, PairResult, PieceResult } from '../why/index.ts';
import { printable } from './printable.ts';

interface Decision {
  run: string;
  call: number;
  step: string;
  description: string;
}

export interface WhyJson {
  decision: Decision;
  model: string;
  base: { k: number; n: number };
  stable: boolean;
  headline: string | null;
  pieces: PieceResult[];
  pairs: PairResult[];
  headlineCheck: { fill: string; k: number; n: number; p: number; holds: boolean } | null;
  calls: number;
  cacheHits: number;
  notes: string[];
  fixes?: FixResult[];
}

function short(text: string, max = 70): string {
  const one = printable(text.replace(/\s+/g, ' ').trim());
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export function pValue(p: number): string {
  return p >= 0.01 ? p.toFixed(3) : p.toExponential(1);
}

function where(path: PiecePath): string {
  return [`message ${path.message}`, path.pointer !== undefined && `at ${path.pointer || '/'}`, path.paragraph !== undefined && `paragraph ${path.paragraph}`, path.sentence !== undefined && `sentence ${path.sentence}`].filter(Boolean).join(', ');
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd());
}

export function formatWhy(r: WhyJson): string {
  const out: string[] = [];
  out.push(`Why step ${r.decision.call} of run ${printable(r.decision.run)} ${r.decision.description} (${printable(r.model)}): ${r.base.k} of ${r.base.n} reruns of the recorded context`);
  if (!r.stable) {
    out.push(...r.notes);
    out.push(`${r.calls} reruns (${r.cacheHits} from the cache)`);
    return out.join('\n');
  }
  const headline = r.pieces.find((p) => p.role === 'headline');
  if (headline) {
    out.push('');
    out.push(`Headline: ${headline.kind} in ${where(headline.path)} (${headline.id})`);
    out.push(`  "${short(headline.text, 200)}"`);
    out.push(`  without it: ${headline.k} of ${headline.n} reruns, p = ${pValue(headline.p)} (Holm-adjusted ${pValue(headline.pAdjusted)})${headline.instead ? `; instead the agent ${headline.instead}` : ''}`);
    if (r.headlineCheck) out.push(`  with a second replacement text: ${r.headlineCheck.k} of ${r.headlineCheck.n}, p = ${pValue(r.headlineCheck.p)}: ${r.headlineCheck.holds ? 'holds' : 'DOES NOT HOLD'}`);
  }
  const rows = [['piece', 'kind', 'removed', 'p', 'adjusted', 'role', 'instead', 'text']];
  for (const p of r.pieces.filter((x) => x.role !== 'screened')) rows.push([p.id, p.kind, `${p.k}/${p.n}`, pValue(p.p), pValue(p.pAdjusted), p.role, p.instead ?? '', `"${short(p.text, 50)}"`]);
  const screened = r.pieces.filter((x) => x.role === 'screened').length;
  out.push('');
  if (rows.length > 1) out.push(...table(rows));
  if (screened > 0) out.push(`${screened} more piece${screened === 1 ? '' : 's'} screened with no change`);
  for (const pair of r.pairs) out.push(`pair ${pair.a} + ${pair.b}: ${pair.kind === 'both-needed' ? 'both needed' : 'either is enough'} (both removed: ${pair.k}/${pair.n}, adjusted p = ${pValue(pair.pAdjusted)})`);
  if (r.fixes) {
    out.push('', 'Fixes (reruns of the recorded context with each):');
    out.push(...table([['verdict', 'fix', 'bad call', 'p', 'instead'], ...r.fixes.map((f) => [f.verdict, f.name, `${f.k}/${f.n}`, pValue(f.p), f.instead ?? ''])]));
  }
  if (r.notes.length > 0) out.push('', ...r.notes.map((n) => `note: ${printable(n)}`));
  out.push('', `${r.calls} reruns (${r.cacheHits} from the cache)`);
  return out.join('\n');
}

export function formatDry(decision: Decision, suspects: readonly DrySuspect[]): string {
  const out = [`Suspects for step ${decision.call} of run ${printable(decision.run)} (${decision.description}), by shared wording, no model call:`];
  if (suspects.length === 0) out.push('no piece shares wording with the decision');
  else out.push(...table([['piece', 'kind', 'shared', 'text'], ...suspects.slice(0, 20).map((s) => [s.id, s.kind, String(s.score), `"${short(s.text, 60)}"`])]));
  if (suspects.length > 20) out.push(`${suspects.length - 20} more (--json lists all)`);
  return out.join('\n');
}

export function formatCheck(r: { check: string; fix: string | null; decision: string; k: number; n: number; passed: boolean; instead: string | null; notes?: string[] }): string {
  const what = `the agent ${r.decision} in ${r.k} of ${r.n} reruns${r.fix ? ` with the fix "${r.fix}"` : ' of the recorded context'}`;
  const verdict = r.passed ? `check passed: ${what}${r.instead ? `; it ${r.instead}` : ''}` : `check FAILED: ${what}`;
  return [verdict, ...(r.notes ?? []).map((n) => `note: ${printable(n)}`)].join('\n');
}
