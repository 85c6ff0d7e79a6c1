/**
 * CPU time of this process and every process below it (the command's analysis workers run in
 * child processes: `process.cpuUsage()` alone does not see them). Linux only, from /proc: each
 * process's utime + stime (proc(5), fields 14 and 15, in clock ticks of 10 ms), plus this
 * process's cutime + cstime (fields 16 and 17: children that ended and were waited for). Elsewhere
 * it is this process's own time. Ticks make it coarse (10 ms a process), so read it around whole
 * runs, not single cases.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10;

interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime, ms */
  ownMs: number;
  /** cutime + cstime, ms */
  childrenMs: number;
}

function readStat(pid: number | 'self'): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: read after its last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), so field k is rest[k - 3].
  const field = (k: number) => Number(rest[k - 3]);
  return { pid: Number(text.slice(0, text.indexOf(' '))), ppid: field(4), ownMs: (field(14) + field(15)) * TICK_MS, childrenMs: (field(16) + field(17)) * TICK_MS };
}

/** Whether /proc can be read here (Linux). */
export const hasProcTree = readStat('self') !== null;

/** CPU ms of this process (exact, from Node) and of its live descendants and waited-for children (from /proc). */
export function treeCpuMs(): number {
  const own = process.cpuUsage();
  const ownMs = (own.user + own.system) / 1000;
  if (!hasProcTree) return ownMs;
  const self = readStat('self')!;
  const byParent = new Map<number, ProcStat[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (!stat) continue;
    const list = byParent.get(stat.ppid);
    if (list) list.push(stat);
    else byParent.set(stat.ppid, [stat]);
  }
  let total = ownMs + self.childrenMs;
  const stack = [...(byParent.get(self.pid) ?? [])];
  while (stack.length > 0) {
    const p = stack.pop()!;
    total += p.ownMs + p.childrenMs;
    stack.push(...(byParent.get(p.pid) ?? []));
  }
  return total;
}
