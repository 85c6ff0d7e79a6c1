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
  /** Silent this long, a frame that answered before is suspected (then lost two intervals later). */
  silentMs: number;
  /** Silent this long, a frame that never answered is suspected of not having started. */
  startMs: number;
}

export const HEARTBEAT_TIMING: HeartbeatTiming = { intervalMs: 500, silentMs: 3000, startMs: 30_000 };

/** The timers the heartbeat uses (injected by tests, which follow how deep they chain). */
export interface Clock {
  setTimeout(callback: () => void, ms: number): ReturnType<typeof setTimeout>;
  clearTimeout(timer: ReturnType<typeof setTimeout> | undefined): void;
}

/** What the frame's control port carries besides the echoes: its worker's error event. */
export interface WorkerErrorMessage {
  agentblameWorkerError: string;
}

/** Why a frame was lost, as the end of a case's error ("the worker was lost ...: <this>"). */
export const CRASHED = 'its process crashed, most likely out of memory (it stopped answering)';

/**
 * Pings through `control` until the returned stop is called; calls `onLost` once with why the
 * frame is gone. A frame is suspected once it has been silent for its limit; it is then pinged
 * once more and given two more intervals (answers queued while the tab was busy or frozen are read
 * first) before it is given up.
 *
 * Each ping is timed from the frame's last echo (a message task), and a timer is never more than
 * three deep from it: Chromium slows chains of five or more timers in a tab hidden for minutes to
 * one run a minute, which would let a case's own time limit fire first and charge a crash as a
 * time-out (a plain interval is such a chain).
 */
export function watchHeartbeat(control: MessagePort, onLost: (reason: string) => void, timing: HeartbeatTiming = HEARTBEAT_TIMING, clock: Clock = globalThis): () => void {
  let answered = false;
  let sent = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let over = false;
  const stop = () => {
    over = true;
    clock.clearTimeout(timer);
    control.onmessage = null;
  };
  const lose = (reason: string) => {
    if (over) return;
    stop();
    onLost(reason);
  };
  const limitMs = () => (answered ? timing.silentMs : timing.startMs);
  /** Pings, and suspects the frame if nothing comes back within its limit. */
  const pingAndWatch = () => {
    control.postMessage(++sent);
    timer = clock.setTimeout(suspect, Math.max(limitMs() - timing.intervalMs, timing.intervalMs));
  };
  /** One last ping; unanswered two intervals later, the frame is lost. */
  const suspect = () => {
    control.postMessage(++sent);
    timer = clock.setTimeout(() => lose(answered ? CRASHED : `its frame did not start within ${timing.startMs / 1000} s`), 2 * timing.intervalMs);
  };
  control.onmessage = (event: MessageEvent) => {
    if (over) return;
    if (typeof event.data === 'number') {
      answered = true;
      clock.clearTimeout(timer);
      timer = clock.setTimeout(pingAndWatch, timing.intervalMs);
    } else if (typeof (event.data as Partial<WorkerErrorMessage> | null)?.agentblameWorkerError === 'string') {
      lose(`its worker failed: ${(event.data as WorkerErrorMessage).agentblameWorkerError}`);
    }
  };
  pingAndWatch();
  return stop;
}
