/**
 * CPU time of every process started by this one (the bench's Chromium and its renderers, GPU and
 * utility processes), from /proc: a figure the machine's load moves far less than wall time, for
 * comparing builds on a shared machine. Linux only; elsewhere it answers null.
 *
 * Each thread's time comes from /proc/PID/task/TID/schedstat (nanoseconds) where the kernel keeps
 * it, else from the process's 10 ms ticks. Ticks were too coarse for the page-vs-command windows of
 * 80-150 ms: each of the browser's five or so processes rounded by up to a tick at both ends
 * (bench/README.md, "Speed round 5"). A window's CPU is summed thread by thread (`between`), so a
 * process or thread that ends meanwhile does not take its earlier time off the sum.
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
  const threads = descendantThreadsCpuMs(include);
  if (threads === null) return null;
  let total = 0;
  for (const ms of threads.values()) total += ms;
  return total;
}

/** Milliseconds of CPU of one thread, from its schedstat (nanoseconds), or null where the kernel keeps none. */
function threadCpuMs(pid: number, tid: string): number | null {
  try {
    const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

/**
 * CPU used so far by each thread of the accepted descendants, keyed "pid/tid" (or "pid" with the
 * process's ticks where a thread's schedstat cannot be read).
 */
function descendantThreadsCpuMs(include: (command: string, ancestors: number[]) => boolean): Map<string, number> | null {
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
  const threads = new Map<string, number>();
  for (const [pid, s] of stats) {
    const ancestors = lineage(pid);
    if (ancestors === null || !include(s.command, ancestors)) continue;
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      // Gone meanwhile.
    }
    const byThread = tids.map((tid) => [tid, threadCpuMs(pid, tid)] as const);
    if (byThread.length > 0 && byThread.every(([, ms]) => ms !== null)) for (const [tid, ms] of byThread) threads.set(`${pid}/${tid}`, ms!);
    else threads.set(String(pid), (s.cpuTicks * 1000) / TICKS_PER_SECOND);
  }
  return threads;
}

/** The browser's threads (descendants other than Node processes), as descendantsCpuMs counts them. */
function browserThreadsCpuMs(): Map<string, number> | null {
  return descendantThreadsCpuMs((command) => command !== 'node');
}

/** CPU of `threads` between two readings: each thread's own difference (a thread new since the first counts from zero; one gone by the second is left out). */
export function cpuBetween(first: ReadonlyMap<string, number>, second: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const [key, ms] of second) total += Math.max(0, ms - (first.get(key) ?? 0));
  return total;
}

/** CPU of `excluded`-free Node descendants, thread by thread: take a reading, and later the CPU since it. */
export function nodeDescendantsCpuSince(excluded: number): () => number {
  const include = (command: string, ancestors: number[]) => command === 'node' && !ancestors.includes(excluded);
  const first = descendantThreadsCpuMs(include) ?? new Map<string, number>();
  return () => cpuBetween(first, descendantThreadsCpuMs(include) ?? new Map<string, number>());
}

/**
 * Samples descendantsCpuMs() every `everyMs` until stopped; `at(epochMs)` then answers the CPU
 * used by then, interpolated between samples (for a window the page reports in its own clock:
 * performance.timeOrigin + performance.now()).
 */
export function sampleDescendantsCpu(everyMs = 25): { stop(): void; at(epochMs: number): number; between(fromEpochMs: number, toEpochMs: number): number } {
  const samples: [number, number][] = [];
  const threadSamples: [number, Map<string, number>][] = [];
  const take = () => {
    const threads = browserThreadsCpuMs();
    if (threads === null) return;
    let cpu = 0;
    for (const ms of threads.values()) cpu += ms;
    const now = Date.now();
    samples.push([now, cpu]);
    threadSamples.push([now, threads]);
  };
  /** Each thread's CPU at `epochMs`, interpolated between the samples around it. */
  const threadsAt = (epochMs: number): Map<string, number> => {
    const after = threadSamples.findIndex(([t]) => t >= epochMs);
    if (after <= 0) return threadSamples[after === 0 ? 0 : threadSamples.length - 1][1];
    const [t0, m0] = threadSamples[after - 1];
    const [t1, m1] = threadSamples[after];
    const share = t1 === t0 ? 1 : (epochMs - t0) / (t1 - t0);
    const at = new Map<string, number>();
    for (const [key, c1] of m1) {
      const c0 = m0.get(key) ?? 0;
      at.set(key, c0 + (c1 - c0) * share);
    }
    return at;
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
    /** CPU between two moments, thread by thread (see cpuBetween). */
    between(fromEpochMs: number, toEpochMs: number): number {
      if (threadSamples.length === 0) return NaN;
      return cpuBetween(threadsAt(fromEpochMs), threadsAt(toEpochMs));
    },
  };
}
