/**
 * The page's "Most tokens per answer" field: the study's `modelParams.default.max_tokens`, the
 * command's `--model-param default.max_tokens=N` (docs/model-steps.md). It caps the chat answers of
 * the default alias (every call that names no other; a replay's turns) over what the call itself
 * asks (a replay sends the recorded max_tokens), so a base model does not write until the server's
 * own limit.
 */
import { paramValueProblem, type ModelParams } from '../../engine/model-params.ts';

/** The cap the study's parameters set for the default alias, as the field shows it ('' when none). */
export function maxTokensText(params: ModelParams | undefined): string {
  const value = params?.default?.max_tokens;
  return typeof value === 'number' ? String(value) : '';
}

/**
 * The study's parameters with the field's text as the cap: blank removes it (the recorded or the
 * model's own limit then applies), anything else must be a positive whole number.
 */
export function withMaxTokens(params: ModelParams | undefined, text: string): { ok: true; params: ModelParams | undefined } | { ok: false; problem: string } {
  const trimmed = text.trim();
  const rest: Record<string, unknown> = { ...(params?.default ?? {}) };
  delete rest.max_tokens;
  if (trimmed !== '') {
    const n = Number(trimmed);
    const problem = /^\d+$/.test(trimmed) ? paramValueProblem('max_tokens', n) : `"${trimmed}" is not a whole number of tokens`;
    if (problem !== null) return { ok: false, problem: `Most tokens per answer ${problem.replace(/^max_tokens /, '')}` };
    rest.max_tokens = n;
  }
  const next: Record<string, Readonly<Record<string, unknown>>> = { ...(params ?? {}) };
  if (Object.keys(rest).length > 0) next.default = rest;
  else delete next.default;
  return { ok: true, params: Object.keys(next).length > 0 ? next : undefined };
}
