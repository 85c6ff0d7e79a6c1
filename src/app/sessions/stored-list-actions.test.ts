import { describe, expect, it } from 'vitest';
import { StoredListActions } from './stored-list-actions.svelte.ts';

describe('StoredListActions', () => {
  it('marks the item busy while its action runs, and clears the last problem', async () => {
    let refreshed = 0;
    const actions = new StoredListActions(async () => void refreshed++);
    actions.problem = new Error('old');
    let release!: () => void;
    const running = actions.run('s1', () => new Promise<void>((resolve) => (release = resolve)));
    expect(actions.busy).toBe('s1');
    expect(actions.problem).toBeNull();
    release();
    await running;
    expect(actions.busy).toBeNull();
    expect(refreshed).toBe(0);
  });

  it('keeps a failed action\'s error to show and reads the list again', async () => {
    let refreshed = 0;
    const actions = new StoredListActions(async () => void refreshed++);
    const failure = new Error('removed in another tab');
    await actions.run('s2', () => Promise.reject(failure));
    expect(actions.problem).toBe(failure);
    expect(actions.busy).toBeNull();
    expect(refreshed).toBe(1);
  });
});

describe('StoredListActions reading the list', () => {
  it('reads when the store is there and on each change it announces, keeps a failed read to show, and stops when asked', async () => {
    let reads = 0;
    let failing = false;
    const actions = new StoredListActions(async () => {
      reads++;
      if (failing) throw new Error('the database is closing');
    });
    expect(actions.watch(null)).toBeUndefined();
    expect(reads).toBe(0);
    const listeners = new Set<() => void>();
    const store = { subscribe: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)) };
    const stop = actions.watch(store)!;
    await Promise.resolve();
    expect(reads).toBe(1);
    failing = true;
    for (const listener of listeners) listener();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reads).toBe(2);
    expect((actions.problem as Error).message).toBe('the database is closing');
    stop();
    expect(listeners.size).toBe(0);
  });
});
