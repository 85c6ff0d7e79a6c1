/**
 * CPU time of every process started by this one (the bench's Chromium and its renderers, GPU and
 * utility processes), from /proc: a figure the machine's load moves far less than wall time, for
 * comparing builds on a shared machine. Linux only; elsewhere it answers null.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

interface ProcStat {
  command: string;
  ppid: number;
  cpuTicks: number;
}

function stat(pid: number): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields are counted after its end.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { command: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), ppid: Number(fields[1]), cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return null;
  }
}

/**
 * Milliseconds of CPU used so far by this process's descendants other than Node processes (the
 * `vite preview` servers): the browser's processes. A process that has exited is no longer counted.
 */
export function descendantsCpuMs(): number | null {
  return descendantsCpuMsWhere((command) => command !== 'node');
}

/**
 * Milliseconds of CPU used so far by this process's Node descendants outside `excluded`'s subtree
 * (the command's pool processes, not the `vite preview` server).
 */
export function nodeDescendantsCpuMs(excluded: number): number | null {
  return descendantsCpuMsWhere((command, ancestors) => command === 'node' && !ancestors.includes(excluded));
}

/** CPU of the descendants whose command name and ancestors (the process itself first) `include` accepts. */
function descendantsCpuMsWhere(include: (command: string, ancestors: number[]) => boolean): number | null {
  let pids: number[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return null;
  }
  const stats = new Map<number, ProcStat>();
  for (const pid of pids) {
    const s = stat(pid);
    if (s) stats.set(pid, s);
  }
  /** The process and its ancestors up to this process, or null when it is not a descendant. */
  const lineage = (pid: number): number[] | null => {
    const chain = [pid];
    for (let p = stats.get(pid)?.ppid; p !== undefined && p > 1; p = stats.get(p)?.ppid) {
      if (p === process.pid) return chain;
      chain.push(p);
    }
    return null;
  };
  let ticks = 0;
  for (const [pid, s] of stats) {
    const ancestors = lineage(pid);
    if (ancestors !== null && include(s.command, ancestors)) ticks += s.cpuTicks;
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/**
 * Samples descendantsCpuMs() every `everyMs` until stopped; `at(epochMs)` then answers the CPU
 * used by then, interpolated between samples (for a window the page reports in its own clock:
 * performance.timeOrigin + performance.now()).
 */
export function sampleDescendantsCpu(everyMs = 25): { stop(): void; at(epochMs: number): number } {
  const samples: [number, number][] = [];
  const take = () => {
    const cpu = descendantsCpuMs();
    if (cpu !== null) samples.push([Date.now(), cpu]);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
    },
    at(epochMs: number): number {
      if (samples.length === 0) return NaN;
      const after = samples.findIndex(([t]) => t >= epochMs);
      if (after <= 0) return after === 0 ? samples[0][1] : samples[samples.length - 1][1];
      const [t0, c0] = samples[after - 1];
      const [t1, c1] = samples[after];
      return t1 === t0 ? c1 : c0 + ((c1 - c0) * (epochMs - t0)) / (t1 - t0);
    },
  };
}
