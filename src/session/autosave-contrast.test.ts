import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { Autosave, type SessionIdentity } from './autosave.ts';
import { buildSession } from './build-session.ts';
import { SessionStore } from './store.ts';
import { sampleContrast } from './testing/sample-contrast.ts';
import { result, session as sampleSession, SETTINGS } from './testing/sample-session.ts';
import type { SessionContrast } from './types.ts';

describe('the autosave keeps a study\'s single-step contrast', () => {
  it('stores a contrast added to a saved study (nothing else changed), and reads it back', async () => {
    const store = await SessionStore.open({ name: 'autosave-contrast' });
    const base = sampleSession();
    const page: { contrast?: SessionContrast } = {};
    let run: (() => void) | null = null;
    const autosave = new Autosave({
      current: (identity: SessionIdentity) => buildSession({ ...identity, fileName: base.fileName, pipeline: base.pipeline, cases: base.cases, settings: SETTINGS, results: [result('q1')], status: 'done', ...(page.contrast && { contrast: page.contrast }) }),
      timer: (save) => {
        run = save;
        return () => (run = null);
      },
      now: () => '2026-11-30T12:00:00.000Z',
      newId: () => 'contrast-session',
    });
    autosave.useStore(store);
    autosave.startNew('replay');
    run!();
    await autosave.idle();
    expect((await store.get('contrast-session'))?.contrast).toBeUndefined();

    page.contrast = sampleContrast();
    autosave.schedule();
    run!();
    await autosave.idle();
    expect((await store.get('contrast-session'))?.contrast).toEqual(sampleContrast());
    store.close();
    // A reload: another store on the same database finds it.
    const again = await SessionStore.open({ name: 'autosave-contrast' });
    expect((await again.get('contrast-session'))?.contrast).toEqual(sampleContrast());
    again.close();
  });
});
