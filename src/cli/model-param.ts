import { paramNameProblem, paramValueProblem } from '../engine/model-params.ts';
import { UsageError } from './usage-error.ts';

/**
 * One `--model-param ALIAS.KEY=VALUE` into `params` (alias -> key -> value): VALUE is read as JSON
 * when it is JSON (`false`, `0.5`, `{"enable_thinking":false}`), else kept as a string (`none`).
 */
export function addModelParam(params: Record<string, Record<string, unknown>>, text: string): void {
  const m = /^([A-Za-z0-9_:-]{1,64})\.([^=]+)=(.*)$/s.exec(text);
  if (!m) throw new UsageError(`--model-param: expected ALIAS.KEY=VALUE (e.g. default.reasoning_effort=none), got "${text}"`);
  const [, alias, key, raw] = m;
  const problem = paramNameProblem(key);
  if (problem) throw new UsageError(`--model-param ${alias}.${key}: ${problem}`);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: the text itself.
  }
  const valueProblem = paramValueProblem(key, value);
  if (valueProblem) throw new UsageError(`--model-param ${alias}.${key}: ${valueProblem}`);
  const set = Object.hasOwn(params, alias) ? params[alias] : {};
  if (Object.hasOwn(set, key)) throw new UsageError(`--model-param: ${alias}.${key} is given twice`);
  Object.defineProperty(set, key, { value, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(params, alias, { value: set, enumerable: true, writable: true, configurable: true });
}
