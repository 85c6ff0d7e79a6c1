/**
 * Summarise a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time,
 * with file and line, so a profile can be read in a terminal and quoted in bench/README.md.
 *
 *   npx tsx bench/profile-summary.ts PROFILE.cpuprofile [TOP=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function selfTimes(profile: Profile): { name: string; ms: number; share: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, k) => {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*\/(src|bench|public|node_modules)\//, '$1/');
    const label = `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    const dt = (profile.timeDeltas[k] ?? 0) / 1000;
    totals.set(label, (totals.get(label) ?? 0) + dt);
    all += dt;
  });
  return [...totals.entries()]
    .map(([name, ms]) => ({ name, ms, share: ms / all }))
    .sort((a, b) => b.ms - a.ms);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top = '25'] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: npx tsx bench/profile-summary.ts PROFILE.cpuprofile [TOP]\n');
    process.exit(2);
  }
  const rows = selfTimes(JSON.parse(readFileSync(file, 'utf8')) as Profile).slice(0, Number(top));
  for (const r of rows) process.stdout.write(`${r.ms.toFixed(0).padStart(7)} ms ${(100 * r.share).toFixed(1).padStart(5)} %  ${r.name}\n`);
}
