/**
 * What the command and the page both need from a replay's user files, in one place: the expected
 * answer as written (`TEXT` or `/REGEX/flags`), and the probe definitions that read a tools file's
 * names or a metric file's export type in the sandbox (the files are untrusted code, so they are
 * compiled as a one-case definition whose case inputs carry the plain answer back).
 */
import type { Outcome } from './types.ts';

const EXPORT_DEFAULT = /^[ \t]*export\s+default\s+/gm;
const REGEX = /^\/(.+)\/([dgimsuy]*)$/s;

/** `/REGEX/flags` (the final answer matches; `g` dropped, as a test must not keep state) or plain text. */
export function expectedOutcome(text: string): { ok: true; outcome: Outcome } | { ok: false; problem: string } {
  const m = REGEX.exec(text);
  if (!m) return { ok: true, outcome: { kind: 'expect', text } };
  try {
    new RegExp(m[1], m[2]);
  } catch (e) {
    return { ok: false, problem: (e as Error).message };
  }
  return { ok: true, outcome: { kind: 'expect-regex', source: m[1], flags: m[2].replace(/g/g, '') } };
}

/** How many `export default` a file has (a probe needs exactly one). */
export function defaultExportCount(source: string): number {
  return (source.match(EXPORT_DEFAULT) ?? []).length;
}

/** A definition whose one case's `inputs` are `inputsExpression`, evaluated with the file's default export bound to `name`. */
function probe(source: string, name: string, checks: readonly string[], inputsExpression: string): string {
  return [
    `const ${name} = (() => {\n${source.replace(/^[ \t]*export\s+default\s+/m, 'return ')}\n})();`,
    ...checks,
    `export default { name: 'probe', steps: [{ name: 'probe', inputs: [], cost: 1, run: () => 0, fixes: [{ name: 'none', cost: 1, run: () => 0 }] }], metric: () => 1, cases: [{ id: 'probe', inputs: ${inputsExpression} }] };`,
  ].join('\n');
}

/** The probe of a tools file (`export default { toolName: (args) => result }`): its case lists the names. */
export function toolsProbe(source: string): { ok: true; probe: string } | { ok: false; problem: string } {
  const count = defaultExportCount(source);
  if (count !== 1) return { ok: false, problem: `expected one "export default { toolName: (args) => result }", found ${count}` };
  return {
    ok: true,
    probe: probe(source, 'TOOLS', [
      "if (TOOLS === null || typeof TOOLS !== 'object') throw new TypeError('the default export must be an object { toolName: (args) => result }');",
      "for (const k of Object.keys(TOOLS)) if (typeof TOOLS[k] !== 'function') throw new TypeError('\"' + k + '\" is not a function');",
    ], '{ names: Object.keys(TOOLS) }'),
  };
}

/** The probe of a metric file (`export default (run) => number`): its case says the export's type. */
export function metricProbe(source: string): string {
  return probe(source, 'METRIC', [], '{ type: typeof METRIC }');
}
