/**
 * The tool names a tool-stubs file (`export default { toolName: (args) => result }`, the command's
 * `--tools`) stubs, read in the sandbox: the file is untrusted code, so it is compiled as a probe
 * definition in an analysis worker whose one case lists the names, and only that plain list
 * comes back. The replay then makes those tools' turns players and runs their stub on a changed call.
 */
import type { LoadOutcome } from '../../pool/page/protocol.ts';
import { toolsProbe } from '../../replay/index.ts';

/** The names, from the probe compiled by `load` (an analysis worker), or the problem naming the file. */
export async function readToolNames(fileName: string, source: string, load: (source: string, fileName: string) => Promise<LoadOutcome>): Promise<{ ok: true; names: Set<string> } | { ok: false; problem: string }> {
  const probe = toolsProbe(source);
  if (!probe.ok) return { ok: false, problem: `Tool stubs "${fileName}": ${probe.problem}` };
  const outcome = await load(probe.probe, fileName);
  if (!outcome.ok) return { ok: false, problem: `Tool stubs "${fileName}": ${outcome.problem.message}` };
  const names: unknown = outcome.summary.cases[0]?.inputs?.names;
  if (!Array.isArray(names) || !names.every((n): n is string => typeof n === 'string')) return { ok: false, problem: `Tool stubs "${fileName}": no tool names could be read` };
  return { ok: true, names: new Set(names) };
}
