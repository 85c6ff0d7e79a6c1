/**
 * Extra endpoint parameters per model alias (`reasoning_effort`, `chat_template_kwargs`, `top_k`,
 * ...): a definition's `modelParams` and the study's (`--model-param ALIAS.KEY=VALUE`), sent as
 * top-level fields of every request for that alias. They are part of the request, so of its cache
 * key. Fields the engine sets itself cannot be given (they would change what a call means), nor
 * `stream` or `n` (the host reads one whole answer); `max_tokens` is the exception: a cap on the
 * alias's answers, it replaces the call's own (a recorded run's) in every request of the alias.
 */
export type ModelParams = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

export const RESERVED_PARAMS: readonly string[] = ['model', 'messages', 'temperature', 'stop', 'seed', 'logprobs', 'top_logprobs', 'stream', 'n', 'params'];

/** Why a parameter name cannot be used, or null. */
export function paramNameProblem(name: string): string | null {
  if (!/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/.test(name)) return `"${name}" is not a parameter name (letters, digits, _ . -; at most 64)`;
  if (RESERVED_PARAMS.includes(name)) return `"${name}" is set by the llm call itself (or not supported), not as an extra parameter`;
  return null;
}

/** Why a parameter's value cannot be used, or null (`max_tokens`: a positive whole number). */
export function paramValueProblem(name: string, value: unknown): string | null {
  if (name === 'max_tokens' && !(typeof value === 'number' && Number.isInteger(value) && value >= 1)) return `max_tokens must be a positive whole number, got ${JSON.stringify(value) ?? String(value)}`;
  return null;
}

/** The parameters of one alias: the definition's, with the study's on top (key by key). */
export function paramsFor(alias: string, fromDefinition: ModelParams | undefined, fromStudy: ModelParams | undefined): Record<string, unknown> | undefined {
  const a = fromDefinition && Object.hasOwn(fromDefinition, alias) ? fromDefinition[alias] : undefined;
  const b = fromStudy && Object.hasOwn(fromStudy, alias) ? fromStudy[alias] : undefined;
  if (a === undefined && b === undefined) return undefined;
  const out: Record<string, unknown> = {};
  for (const source of [a, b]) {
    for (const [key, value] of Object.entries(source ?? {})) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
