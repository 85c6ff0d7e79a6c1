import { describe, expect, it } from 'vitest';
import { CRASHED, watchHeartbeat, type Clock, type HeartbeatTiming } from './frame-heartbeat.ts';

const timing: HeartbeatTiming = { intervalMs: 10, silentMs: 80, startMs: 300 };

/** One turn of the event loop (no wall-clock wait). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Virtual time for the heartbeat. With real 10-80 ms timers, an echo that a loaded machine
 * delivered 80 ms late read as a crash; here time moves only when a test advances it, and before
 * each timer fires every message already posted has arrived, so a frame that answers is always
 * heard in time and silence is judged in the heartbeat's own terms. It also follows how deep timers
 * chain: a timer started in a timer's callback is one deeper than it; one started elsewhere (an
 * echo's handler) is at depth 1.
 */
class VirtualClock implements Clock {
  now = 0;
  deepest = 0;
  #depth = 0;
  #inFlight = 0;
  readonly #timers = new Map<ReturnType<typeof setTimeout>, { at: number; level: number; callback: () => void }>();

  setTimeout(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
    // A real handle, cleared at once, only as this timer's identity.
    const handle = setTimeout(() => {}, 0);
    clearTimeout(handle);
    const level = this.#depth + 1;
    this.deepest = Math.max(this.deepest, level);
    this.#timers.set(handle, { at: this.now + ms, level, callback });
    return handle;
  }

  clearTimeout(timer: ReturnType<typeof setTimeout> | undefined): void {
    if (timer !== undefined) this.#timers.delete(timer);
  }

  /** Counts the messages posted from and received at these ports, to wait for those in flight. */
  track(...ports: MessagePort[]): void {
    for (const port of ports) {
      const post = port.postMessage.bind(port);
      port.postMessage = (message: unknown) => {
        this.#inFlight++;
        post(message);
      };
      port.addEventListener('message', () => this.#inFlight--);
    }
  }

  /** Moves time on by `ms`, firing the timers due in order, each once the messages posted before it have arrived. */
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      await this.#settle();
      let next: [ReturnType<typeof setTimeout>, { at: number; level: number; callback: () => void }] | undefined;
      for (const entry of this.#timers) if (entry[1].at <= end && (next === undefined || entry[1].at < next[1].at)) next = entry;
      if (next === undefined) break;
      this.#timers.delete(next[0]);
      this.now = next[1].at;
      this.#depth = next[1].level;
      try {
        next[1].callback();
      } finally {
        this.#depth = 0;
      }
    }
    this.now = end;
  }

  async #settle(): Promise<void> {
    do await turn();
    while (this.#inFlight > 0);
  }
}

/** A frame's control port: echoes pings while `alive`. */
function frame(clock: VirtualClock) {
  const { port1, port2 } = new MessageChannel();
  const state = { alive: true };
  port2.onmessage = (event) => state.alive && port2.postMessage(event.data);
  clock.track(port1, port2);
  return { page: port1, child: port2, state };
}

/** A frame watched from its first ping (`alive`: whether it answers), and the losses noticed. */
function watched(alive = true) {
  const clock = new VirtualClock();
  const { page, child, state } = frame(clock);
  state.alive = alive;
  const lost: string[] = [];
  const stop = watchHeartbeat(page, (reason) => lost.push(reason), timing, clock);
  return { clock, page, child, state, lost, stop };
}

describe('watchHeartbeat', () => {
  it('keeps quiet while the frame answers, and notices once it stops answering', async () => {
    const { clock, page, child, state, lost, stop } = watched();
    await clock.advance(250);
    expect(lost).toEqual([]);
    state.alive = false;
    // Its last echo came at most one interval ago: less than the silent limit later, still trusted.
    await clock.advance(timing.silentMs - 2 * timing.intervalMs);
    expect(lost).toEqual([]);
    await clock.advance(200);
    expect(lost).toEqual([CRASHED]);
    stop();
    child.close();
  });

  it('gives a frame that never answered its start time, then says it did not start', async () => {
    const { clock, page, child, state, lost } = watched(false);
    await clock.advance(timing.startMs - 1);
    expect(lost).toEqual([]);
    await clock.advance(200);
    expect(lost).toEqual(['its frame did not start within 0.3 s']);
    child.close();
  });

  it("reports the worker's error event, once", async () => {
    const { clock, page, child, lost } = watched();
    child.postMessage({ agentblameWorkerError: 'Uncaught SyntaxError' });
    child.postMessage({ agentblameWorkerError: 'again' });
    await clock.advance(0);
    expect(lost).toEqual(['its worker failed: Uncaught SyntaxError']);
    await clock.advance(500);
    expect(lost).toHaveLength(1);
    child.close();
  });

  it('says nothing once stopped', async () => {
    const { clock, page, child, state, lost, stop } = watched();
    await clock.advance(30);
    stop();
    state.alive = false;
    await clock.advance(1000);
    expect(lost).toEqual([]);
    child.close();
  });

  it('never chains timers five deep (Chromium slows such chains in a hidden tab), answered or silent', async () => {
    const { clock, page, child, state, lost } = watched();
    await clock.advance(200);
    state.alive = false;
    await clock.advance(500);
    expect(lost).toEqual([CRASHED]);
    expect(clock.deepest).toBeGreaterThanOrEqual(2);
    expect(clock.deepest).toBeLessThan(5);
    child.close();
  });
});
