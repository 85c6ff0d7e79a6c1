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
