/**
 * Notices that an analysis frame's process is gone. A crashed process sends nothing (no error
 * event reaches the page, and Chromium has no close event on a MessagePort), so the page asks the
 * frame's main thread, which does nothing else, to echo a number every half second. That thread is
 * not the worker's, so a worker busy with a long case still answers through its frame; a frame that
 * answered before and then stays silent for seconds has lost its process.
 */
export interface HeartbeatTiming {
  /** Between two pings. */
  intervalMs: number;
  /** Unanswered this long (and at least three pings), a frame that answered before is lost. */
  silentMs: number;
  /** Unanswered this long, a frame that never answered did not start. */
  startMs: number;
}

export const HEARTBEAT_TIMING: HeartbeatTiming = { intervalMs: 500, silentMs: 3000, startMs: 30_000 };

/** What the frame's control port carries besides the echoes: its worker's error event. */
export interface WorkerErrorMessage {
  agentblameWorkerError: string;
}

/** Why a frame was lost, as the end of a case's error ("the worker was lost ...: <this>"). */
export const CRASHED = 'its process crashed, most likely out of memory (it stopped answering)';

/**
 * Pings through `control` until the returned stop is called; calls `onLost` once with why the
 * frame is gone. Time is read at each ping, so a tab whose timers are slowed (in the background)
 * only notices later, and a ping must go unanswered for several of its own turns before the frame
 * is given up (answers queued while the tab was frozen are read first).
 */
export function watchHeartbeat(control: MessagePort, onLost: (reason: string) => void, timing: HeartbeatTiming = HEARTBEAT_TIMING): () => void {
  let answered = false;
  let sent = 0;
  /** The oldest unanswered ping: when it was sent and how many pings went since. */
  let waiting: { since: number; pings: number } | null = null;
  let over = false;
  const stop = () => {
    over = true;
    clearInterval(timer);
    control.onmessage = null;
  };
  const lose = (reason: string) => {
    if (over) return;
    stop();
    onLost(reason);
  };
  control.onmessage = (event: MessageEvent) => {
    if (typeof event.data === 'number') {
      answered = true;
      waiting = null;
    } else if (typeof (event.data as Partial<WorkerErrorMessage> | null)?.agentblameWorkerError === 'string') {
      lose(`its worker failed: ${(event.data as WorkerErrorMessage).agentblameWorkerError}`);
    }
  };
  const ping = () => {
    const now = performance.now();
    if (waiting !== null) {
      waiting.pings++;
      const limit = answered ? timing.silentMs : timing.startMs;
      if (waiting.pings >= 3 && now - waiting.since >= limit) {
        lose(answered ? CRASHED : `its frame did not start within ${limit / 1000} s`);
        return;
      }
    } else waiting = { since: now, pings: 0 };
    control.postMessage(++sent);
  };
  const timer = setInterval(ping, timing.intervalMs);
  ping();
  return stop;
}
