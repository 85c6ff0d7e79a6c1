import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { projectRootFrom } from './bundle-cache.mjs';
import { PHASE_IDLE, PROGRESS_SLOTS, type ModelWaitAnswer, type WorkerReply, type WorkerReplyGroup, type WorkerRequest, type WorkerWhere } from './protocol.ts';
import type { WorkerScript } from './worker-script.ts';

/** Where a worker was when asked: a step index or PHASE_* marker, and the case's index in its batch. */
export type WorkerProgress = WorkerWhere;

export interface WorkerProcessEvents {
  message(reply: WorkerReply): void;
  /**
   * The worker is gone (its thread failed, ran out of memory, or the process died); called once.
   * `where`: the thread's last progress, when its process could still read it (not when the
   * whole process died).
   */
  death(message: string, where?: WorkerWhere): void;
}

/** How long the pool waits for a stuck worker's process to say where its thread is. */
const PROGRESS_WAIT_MS = 500;

let supervisor: string | undefined;
/** Found from the project root (by name), so this also works from inside the command's bundle. */
function supervisorPath(): string {
  supervisor ??= join(projectRootFrom(import.meta.url), 'workers/analysis.process.mjs');
  return supervisor;
}

/**
 * One analysis worker: a worker thread inside a child process of its own (workers/analysis.process.mjs).
 * A worker thread alone cannot contain every failure of user code: some allocations end in a fatal
 * V8 error that aborts the whole process (`new Array(1e8).fill(7)`, an array pushed past V8's
 * largest size), resource limits or not. In a child process that ends the child, never the command.
 * Messages are structured clones (`serialization: 'advanced'`), so NaN and nested data survive.
 */
export class WorkerProcess {
  private readonly child: ChildProcess;
  private dead = false;
  private readonly exited: Promise<void>;
  private progressWaiters: ((progress: WorkerProgress | null) => void)[] = [];

  constructor(script: WorkerScript, memoryLimitMb: number, events: WorkerProcessEvents) {
    const config = {
      url: script.url.href,
      execArgv: script.execArgv ?? [],
      memoryLimitMb,
      progressSlots: PROGRESS_SLOTS,
      idlePhase: PHASE_IDLE,
    };
    this.child = fork(supervisorPath(), [JSON.stringify(config)], {
      serialization: 'advanced',
      // The supervisor is plain JavaScript: none of the parent's loaders or flags.
      execArgv: [],
      // stdout is the command's (--json), and stderr would get V8's fatal-error dumps: the pool
      // reports every failure as the case's error instead.
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      // Definitions see the same local time everywhere (the Date methods that read the time zone).
      env: { ...process.env, TZ: 'UTC' },
    });
    const die = (message: string, where?: WorkerWhere) => {
      if (this.dead) return;
      this.dead = true;
      this.answerProgress(null);
      events.death(message, where);
    };
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.child.on('message', (message: WorkerReply | WorkerReplyGroup | { type: 'worker-error'; message: string; where?: WorkerWhere } | ({ type: 'progress' } & WorkerProgress)) => {
      if (message.type === 'progress') this.answerProgress({ phase: message.phase, case: message.case, job: message.job });
      else if (message.type === 'worker-error') die(message.message, message.where);
      else if (message.type === 'replies') {
        // The pool may stop this worker while handling one reply of the group: the rest are then dropped.
        for (const reply of message.replies) if (!this.dead) events.message(reply);
      } else if (!this.dead) events.message(message);
    });
    this.child.on('error', (error) => die(error.message));
    this.child.on('exit', (code, signal) => {
      die(signal === 'SIGABRT' || signal === 'SIGTRAP' || code === 134
        ? 'the worker process aborted (out of memory, or an array or string past its largest size)'
        : `the worker process exited (${signal ?? `code ${code}`})`);
    });
  }

  postMessage(request: WorkerRequest): void {
    if (!this.dead && this.child.connected) this.child.send(request);
  }

  /** The answer a thread blocked in a 'model-wait' is waiting for (its process wakes it). */
  answerWait(answer: ModelWaitAnswer): void {
    if (!this.dead && this.child.connected) this.child.send(answer);
  }

  /** Where the thread is, read by its process; null if the process does not answer in time. */
  progress(): Promise<WorkerProgress | null> {
    if (this.dead || !this.child.connected) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.progressWaiters = this.progressWaiters.filter((waiter) => waiter !== done);
        resolve(null);
      }, PROGRESS_WAIT_MS);
      const done = (progress: WorkerProgress | null) => {
        clearTimeout(timer);
        resolve(progress);
      };
      this.progressWaiters.push(done);
      this.child.send({ type: 'progress?' });
    });
  }

  /** Kill the process; resolves once it is gone. Keeps the event loop alive until then. */
  terminate(): Promise<void> {
    this.dead = true;
    this.answerProgress(null);
    this.ref();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    return this.exited;
  }

  ref(): void {
    this.child.ref();
    (this.child.channel as { ref?(): void } | undefined)?.ref?.();
  }

  unref(): void {
    this.child.unref();
    (this.child.channel as { unref?(): void } | undefined)?.unref?.();
  }

  private answerProgress(progress: WorkerProgress | null): void {
    const waiters = this.progressWaiters;
    this.progressWaiters = [];
    for (const waiter of waiters) waiter(progress);
  }
}
