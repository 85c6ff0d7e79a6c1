import { describe, expect, it } from 'vitest';
import { CallGate } from './call-gate.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('CallGate', () => {
  it('lets shared calls run together, and a call alone only once they have ended', async () => {
    const gate = new CallGate();
    const a = await gate.shared();
    const b = await gate.shared();
    expect(gate.running).toBe(2);
    let aloneStarted = false;
    const alone = gate.alone().then((release) => ((aloneStarted = true), release));
    a!();
    await settle();
    expect(aloneStarted).toBe(false);
    b!();
    const release = await alone;
    expect(aloneStarted).toBe(true);
    expect(gate.running).toBe(1);
    release!();
    expect(gate.running).toBe(0);
  });

  it('holds back new shared calls while a call waits to run alone, then lets them all in', async () => {
    const gate = new CallGate();
    const first = await gate.shared();
    const aloneHeld = gate.alone();
    let laterStarted = 0;
    const later = [gate.shared(), gate.shared()].map((p) => p.then((release) => (laterStarted++, release)));
    await settle();
    expect(laterStarted).toBe(0);
    first!();
    const alone = await aloneHeld;
    await settle();
    expect(laterStarted).toBe(0);
    alone!();
    const releases = await Promise.all(later);
    expect(laterStarted).toBe(2);
    expect(gate.running).toBe(2);
    releases.forEach((release) => release!());
  });

  it('runs calls that must be alone one after another', async () => {
    const gate = new CallGate();
    const first = await gate.alone();
    let secondStarted = false;
    const second = gate.alone().then((release) => ((secondStarted = true), release));
    await settle();
    expect(secondStarted).toBe(false);
    first!();
    first!(); // a second release frees nothing more
    (await second)!();
    expect(gate.running).toBe(0);
  });

  it('gives up a wait when its signal aborts, and the calls behind it go on', async () => {
    const gate = new CallGate();
    const shared = await gate.shared();
    const controller = new AbortController();
    const abandoned = gate.alone(controller.signal);
    const next = gate.shared();
    controller.abort();
    expect(await abandoned).toBeNull();
    const release = await next;
    expect(gate.running).toBe(2);
    release!();
    shared!();
    expect(await gate.shared(AbortSignal.abort())).not.toBeNull(); // nothing to wait for: admitted at once
  });
});
