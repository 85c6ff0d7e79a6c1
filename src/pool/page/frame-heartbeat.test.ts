import { describe, expect, it } from 'vitest';
import { CRASHED, watchHeartbeat, type Clock, type HeartbeatTiming } from './frame-heartbeat.ts';

const timing: HeartbeatTiming = { intervalMs: 10, silentMs: 80, startMs: 300 };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A frame's control port: echoes pings while `alive`. */
function frame() {
  const { port1, port2 } = new MessageChannel();
  const state = { alive: true };
  port2.onmessage = (event) => state.alive && port2.postMessage(event.data);
  return { page: port1, child: port2, state };
}

describe('watchHeartbeat', () => {
  it('keeps quiet while the frame answers, and notices once it stops answering', async () => {
    const { page, child, state } = frame();
    const lost: string[] = [];
    const stop = watchHeartbeat(page, (reason) => lost.push(reason), timing);
    await pause(250);
    expect(lost).toEqual([]);
    state.alive = false;
    await expect.poll(() => lost, { timeout: 2000, interval: 20 }).toEqual([CRASHED]);
    stop();
    child.close();
  });

  it('gives a frame that never answered its start time, then says it did not start', async () => {
    const { page, child, state } = frame();
    state.alive = false;
    const lost: string[] = [];
    watchHeartbeat(page, (reason) => lost.push(reason), timing);
    await pause(150);
    expect(lost).toEqual([]);
    await expect.poll(() => lost, { timeout: 2000, interval: 20 }).toEqual(['its frame did not start within 0.3 s']);
    child.close();
  });

  it("reports the worker's error event, once", async () => {
    const { page, child } = frame();
    const lost: string[] = [];
    watchHeartbeat(page, (reason) => lost.push(reason), timing);
    child.postMessage({ agentblameWorkerError: 'Uncaught SyntaxError' });
    child.postMessage({ agentblameWorkerError: 'again' });
    await expect.poll(() => lost, { timeout: 2000, interval: 20 }).toEqual(['its worker failed: Uncaught SyntaxError']);
    await pause(30);
    expect(lost).toHaveLength(1);
    child.close();
  });

  it('says nothing once stopped', async () => {
    const { page, child, state } = frame();
    const lost: string[] = [];
    const stop = watchHeartbeat(page, (reason) => lost.push(reason), timing);
    await pause(30);
    stop();
    state.alive = false;
    await pause(250);
    expect(lost).toEqual([]);
    child.close();
  });

  it('never chains timers five deep (Chromium slows such chains in a hidden tab), answered or silent', async () => {
    // How deep each timer is: 1 when started outside a timer callback (an echo), else its parent's + 1.
    let depth = 0;
    let deepest = 0;
    const clock: Clock = {
      setTimeout: (callback, ms) => {
        const level = depth + 1;
        deepest = Math.max(deepest, level);
        return setTimeout(() => {
          depth = level;
          try {
            callback();
          } finally {
            depth = 0;
          }
        }, ms);
      },
      clearTimeout: (timer) => clearTimeout(timer),
    };
    const { page, child, state } = frame();
    const lost: string[] = [];
    watchHeartbeat(page, (reason) => lost.push(reason), timing, clock);
    await pause(200);
    state.alive = false;
    await expect.poll(() => lost, { timeout: 2000, interval: 20 }).toEqual([CRASHED]);
    expect(deepest).toBeGreaterThanOrEqual(2);
    expect(deepest).toBeLessThan(5);
    child.close();
  });
});
