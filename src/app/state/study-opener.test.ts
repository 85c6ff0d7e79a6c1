/**
 * StudyOpener: what opening files, demos, definitions and sessions does to the page's state, with
 * the importer run in-process, the analysis pool faked, fake-indexeddb as the browser's storage
 * (a fresh database each test) and the fake browser serving the demos.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aggregateBatch } from '../../engine/batch.ts';
import { requestKey } from '../../engine/model-call.ts';
import { WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import { buildSession } from '../../session/build-session.ts';
import { exportSessionFile } from '../../session/session-file.ts';
import { shardOf } from '../../session/shard.ts';
import { studyFingerprint } from '../../session/study-fingerprint.ts';
import { result, session as sampleSession, SETTINGS } from '../../session/testing/sample-session.ts';
import type { Session } from '../../session/types.ts';
import { installFakeBrowser, type FakeBrowser } from '../testing/fake-browser.ts';
import { traceText } from '../testing/in-process-import.ts';
import { pageState, type PageState } from '../testing/page-state.ts';
import { settle } from '../testing/settle.ts';

const PIPELINE = { name: 'refund', source: 'export default { name: "refund" }' };

let page: PageState;
let browser: FakeBrowser;

beforeEach(async () => {
  vi.stubGlobal('indexedDB', new IDBFactory());
  browser = installFakeBrowser('http://localhost/app/');
  page = pageState();
  await page.sync.init();
});
afterEach(() => {
  page.sync.store?.close();
  vi.unstubAllGlobals();
});

const shownIds = () => page.runner.results.map((r) => r?.id);

/** Shard `index` of `count` of one five-case study, as `--shard` writes it. */
function shard(index: number, count: number): Session {
  const cases = ['a', 'b', 'c', 'd', 'e'].map((id, k) => ({ id, inputs: { q: id }, seed: k + 1 }));
  const study = { pipeline: PIPELINE, cases, settings: SETTINGS };
  const results = shardOf(cases.map((c) => result(c.id)), { index, count });
  return buildSession({
    id: `s${index}`, name: 'refund', createdAt: '2026-01-01T10:00:00.000Z', fileName: 't.json', ...study, results,
    batch: aggregateBatch(results, { delta: SETTINGS.delta, bound: 'normal' }), status: 'done',
    study: { fingerprint: studyFingerprint(study), shard: { index, count }, batchBound: 'normal' },
  });
}

describe('StudyOpener opening files', () => {
  it('opens a trace as a new session and analyses it', async () => {
    await page.opener.openSource(traceText(['q1', 'pass2'], PIPELINE), 'refund.trace.json');
    expect(page.opener.notice).toBeNull();
    expect(page.opener.importing).toBeNull();
    expect(page.runner.study).toMatchObject({ fileName: 'refund.trace.json', name: 'refund', pipeline: PIPELINE });
    expect(shownIds()).toEqual(['q1', 'pass2']);
    expect(page.sync.identity?.name).toBe('refund');
    expect(page.opener.demo).toBeNull();
  });

  it('names the file and the place in it when a file cannot be read, and opens nothing', async () => {
    await page.opener.openSource('{"format": "agentblame-trace", "version": 1, "cases": [\n  {"id": "q1", "inputs": {}},\n]}', 'broken.trace.json');
    expect(page.opener.notice?.title).toBe('Could not open broken.trace.json');
    expect(page.opener.notice?.problem.message).toMatch(/line 3/);
    expect(page.opener.importing).toBeNull();
    expect(page.runner.study).toBeNull();
    expect(page.sync.identity).toBeNull();
  });

  it('shows the import\'s progress while a file is read', async () => {
    const seen: unknown[] = [];
    const blob = new Blob([traceText(['q1'])]);
    const opening = page.opener.openSource(blob, 'big.trace.json');
    seen.push(page.opener.importing);
    await opening;
    expect(seen).toEqual([{ phase: 'reading', loaded: 0, total: blob.size, fileName: 'big.trace.json' }]);
    expect(page.opener.importing).toBeNull();
  });

  it('pairs a definition dropped with a trace, whatever their order', async () => {
    await page.opener.openFiles([new File([PIPELINE.source], 'refund.pipeline.js'), new File([traceText(['q1', 'q2'])], 'refund.trace.json')]);
    expect(page.runner.study).toMatchObject({ fileName: 'refund.trace.json', definitionFile: 'refund.pipeline.js', pipeline: { source: PIPELINE.source } });
    expect(page.runner.definition.status).toBe('ready');
    expect(shownIds()).toEqual(['q1', 'q2']);
  });

  it('opens a definition on its own cases when no trace is open', async () => {
    page.pool.summaryExtra = { cases: [{ id: 'own', inputs: {} }] };
    await page.opener.pairDefinition(PIPELINE, 'refund.pipeline.js');
    expect(page.runner.study).toMatchObject({ fileName: 'refund.pipeline.js', definitionFile: 'refund.pipeline.js' });
    expect(shownIds()).toEqual(['own']);
    expect(page.sync.identity?.name).toBe('refund');
  });

  it('opens a definition as a study of its own when game tables are open (they have no cases to pair)', async () => {
    await page.opener.openSource(JSON.stringify({ format: 'agentblame-game', version: 1, games: [{ id: 'g1', players: ['x', 'y'], values: [{ fixed: [], value: 0 }, { fixed: ['x'], value: 1 }, { fixed: ['y'], value: 0 }, { fixed: ['x', 'y'], value: 1 }] }] }), 'g.game.json');
    expect(page.opener.notice).toBeNull();
    expect(page.runner.study?.games.map((g) => g.id)).toEqual(['g1']);
    const first = page.sync.identity!.id;
    page.pool.summaryExtra = { cases: [{ id: 'own', inputs: {} }] };
    await page.opener.pairDefinition(PIPELINE, 'refund.pipeline.js');
    expect(page.runner.study).toMatchObject({ fileName: 'refund.pipeline.js', games: [] });
    expect(shownIds()).toEqual(['own']);
    expect(page.sync.identity!.id).not.toBe(first);
  });

  it('applies a link\'s settings over the defaults', async () => {
    await page.opener.openNewStudy({ fileName: 't.json', name: 't', pipeline: PIPELINE, cases: [{ id: 'q1', inputs: {} }], games: [] }, { settings: { seed: 12 } });
    expect(page.runner.settings).toEqual({ ...page.runner.defaultSettings(), seed: 12 });
    expect(page.runner.finishedResults()[0].cost).toBe(13);
  });

  it('hands recorded runs to the run view, and many files to it first', async () => {
    const handed: string[] = [];
    page.opener.onRecordedRuns = (input, fileName) => handed.push(`${fileName}: ${input.runs?.runs.length} run(s)`);
    await page.opener.openSource(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json');
    expect(handed).toEqual(['algorithm/7.json: 1 run(s)']);
    expect(page.runner.study).toBeNull();
    let offered: string[] = [];
    page.opener.onManyFiles = async (files) => {
      offered = files.map((f) => f.name);
      return files.filter((f) => f.name.endsWith('.trace.json'));
    };
    await page.opener.openFiles([new File(['{}'], 'run.json'), new File([traceText(['q1'])], 'x.trace.json')]);
    expect(offered).toEqual(['run.json', 'x.trace.json']);
    expect(page.opener.notice).toBeNull();
    expect(page.runner.study?.fileName).toBe('x.trace.json');
  });
});

describe('StudyOpener opening sessions', () => {
  it('stores a session file and continues it: its results kept, the missing cases analysed', async () => {
    const file = sampleSession({ results: [result('q1')], status: 'running' });
    await page.opener.openSource(exportSessionFile(file), 'refund.session.json');
    expect(page.opener.notice).toBeNull();
    // A session stored as running with no tab analysing it was interrupted: shown, not resumed.
    expect(page.runner.progress?.status).toBe('interrupted');
    expect(page.runner.settings).toEqual(SETTINGS);
    expect(shownIds()).toEqual(['q1', undefined, undefined]);
    const id = page.sync.identity!.id;
    expect((await page.sync.store!.get(id))?.name).toBe(file.name);
    await page.runner.analyze();
    expect(page.pool.jobs[0].items.map((i) => i.index)).toEqual([1, 2]);
  });

  it('resumes a finished session at once, and shows a cancelled one as stopped', async () => {
    await page.opener.openSessionFile(sampleSession({ results: [result('q1')], status: 'done' }));
    expect(shownIds()).toEqual(['q1', 'q2', 'q3']);
    await page.opener.openSessionFile(sampleSession({ id: 'other', results: [result('q1')], status: 'cancelled' }));
    expect(page.runner.progress?.status).toBe('cancelled');
  });

  it('merges session files dropped together (shards of one study), and says which cases had no result', async () => {
    await page.opener.openFiles([new File([exportSessionFile(shard(1, 3))], 's1.json'), new File([exportSessionFile(shard(3, 3))], 's3.json')]);
    expect(page.opener.notice?.title).toBe('Merged 2 session files; some cases had no result');
    expect(page.runner.study?.cases.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    // The cases of the missing shard are analysed here (the fake pool's cost is the seed plus one, 8; the shards' 6).
    const kept = new Set([...shard(1, 3).results, ...shard(3, 3).results].map((r) => r.id));
    expect(kept.size).toBeGreaterThan(0);
    expect(kept.size).toBeLessThan(5);
    expect(page.runner.finishedResults().map((r) => [r.id, r.cost])).toEqual(['a', 'b', 'c', 'd', 'e'].map((id) => [id, kept.has(id) ? 6 : 8]));
  });

  it('names what stops session files from merging', async () => {
    const other = { ...shard(2, 3), pipeline: { name: 'refund', source: 'export default { name: "other" }' } };
    await page.opener.openSessionFiles([{ file: 's1.json', session: shard(1, 3) }, { file: 's2.json', session: other }]);
    expect(page.opener.notice?.title).toBe('Could not merge 2 session files');
    expect(page.runner.study).toBeNull();
  });

  it('opens a stored session by id, and says so when it is gone', async () => {
    await page.opener.openSessionFile(sampleSession());
    const id = page.sync.identity!.id;
    page.opener.close();
    expect(await page.opener.openStored(id)).toBe(true);
    expect(page.sync.identity?.id).toBe(id);
    expect(await page.opener.openStored('nobody')).toBe(false);
    expect(page.opener.notice?.problem.message).toBe('Session nobody is not stored in this browser (deleted in another tab?).');
  });

  it('names the demo a stored session came from only when its file is that demo', async () => {
    await page.opener.openSession(sampleSession({ fileName: 'refund-policy.trace.json' }), { demo: 'refund-policy' });
    expect(page.opener.demo).toBe('refund-policy');
    await page.opener.openSession(sampleSession({ fileName: 'mine.trace.json' }), { demo: 'refund-policy' });
    expect(page.opener.demo).toBeNull();
  });
});

describe('StudyOpener demos', () => {
  it('fetches a demo from next to the page and names it', async () => {
    browser.files.set('/app/demos/refund-policy.trace.json', { body: traceText(['q1'], PIPELINE) });
    await page.opener.openDemo('refund-policy');
    expect(page.opener.notice).toBeNull();
    expect(page.opener.demo).toBe('refund-policy');
    expect(page.runner.study?.fileName).toBe('refund-policy.trace.json');
  });

  it('says so when the demo is missing from the build', async () => {
    await page.opener.openDemo('refund-policy');
    expect(page.opener.notice).toEqual({ title: 'Could not open the demo', problem: { message: expect.stringContaining('demos/refund-policy.trace.json') } });
    expect(page.opener.demo).toBeNull();
  });

  it('keeps the valid shipped responses of a model demo, skipping an entry that answers another request', async () => {
    const request = { model: 'tiny', messages: [{ role: 'user' as const, content: 'route this ticket' }] };
    const good = { key: requestKey(request), request, response: { text: 'billing', finish: 'stop', usage: { input: 3, output: 1 } } };
    const forged = { ...good, request: { ...request, messages: [{ role: 'user', content: 'something else' }] } };
    browser.files.set('/app/demos/support-triage.responses.jsonl', { body: `${JSON.stringify(good)}\n${JSON.stringify(forged)}\n`, contentType: 'text/plain' });
    browser.files.set('/app/demos/support-triage.pipeline.js', { body: PIPELINE.source, contentType: 'text/javascript' });
    await page.opener.openDemo('support-triage');
    expect(page.opener.demo).toBe('support-triage');
    expect(await page.runner.model.store.count()).toBe(1);
    expect([...(await page.runner.model.store.getMany([good.key])).values()].map((e) => e.response.text)).toEqual(['billing']);
  });
});

describe('StudyOpener closing', () => {
  it('stops a running analysis, stores it as stopped, and forgets the study', async () => {
    const waiting = page.pool.whenWaiting();
    const opening = page.opener.openSource(traceText(['q1', 'slow2'], PIPELINE), 'refund.trace.json');
    await waiting;
    const id = page.sync.identity!.id;
    page.opener.notice = { title: 'old', problem: { message: 'old' } };
    page.opener.close();
    await opening;
    expect(page.runner.study).toBeNull();
    expect(page.sync.identity).toBeNull();
    expect([page.opener.notice, page.opener.demo]).toEqual([null, null]);
    await settle(async () => (await page.sync.store!.get(id))?.status === 'cancelled', 'the study stored as stopped');
    expect((await page.sync.store!.get(id))!.results.map((r) => r.id)).toEqual(['q1']);
  });
});
