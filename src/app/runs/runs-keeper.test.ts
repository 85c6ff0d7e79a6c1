/**
 * RunsKeeper (trace files opened in the run view, kept in this browser's store) and RunsAddress
 * (a run's address reopening it from the store after a reload or in a new tab), wired as
 * App.svelte wires them, over fake-indexeddb with the Who&When importer read in-process.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import { WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import { StorageFullError } from '../../session/errors.ts';
import { SessionStore } from '../../session/store.ts';
import { simulateQuota } from '../../session/testing/quota.ts';
import { installFakeBrowser, type FakeBrowser } from '../testing/fake-browser.ts';
import { settle } from '../testing/settle.ts';
import { RunsAddress, runsHash } from './runs-address.svelte.ts';
import { RunsKeeper, type ReadRunFiles } from './runs-keeper.svelte.ts';
import { RunsState } from './runs-state.svelte.ts';

/** A Who&When log whose run is `id` (the importer names the run after the file's path). */
function logText(question: string): string {
  return JSON.stringify({ ...WHOWHEN_LOG, question_ID: question });
}

/** The import worker's job, in-process: each file read by the Who&When importer. */
const read: ReadRunFiles = async (files) =>
  Promise.all(files.map(async ({ file, path }) => ({ fileName: path, ok: true as const, runs: readWhoWhen(await file.text(), path) })));

let counter = 0;
const stores: SessionStore[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  vi.unstubAllGlobals();
});

async function openStore(name: string, runFileLimit?: number): Promise<SessionStore> {
  const store = await SessionStore.open({ name, broadcast: false, ...(runFileLimit !== undefined && { runFileLimit }) });
  stores.push(store);
  return store;
}

/** One page: its run view state, keeper and address, over the database `name` (a tab of the same browser). */
async function page(name: string, options: { runFileLimit?: number; store?: boolean; read?: ReadRunFiles } = {}) {
  const runs = new RunsState();
  const told: { title: string; message: string }[] = [];
  const keeper = new RunsKeeper({ runs, read: options.read ?? read, tell: (title, message) => told.push({ title, message }) });
  keeper.useStore(options.store === false ? null : (await openStore(name, options.runFileLimit)).runFiles);
  const said: { message: string; action: boolean }[] = [];
  const address = new RunsAddress(runs, (message, action) => said.push({ message, action: action !== undefined }), (place) => keeper.restore(place), { label: 'Open the file…', run: () => {} });
  return { runs, keeper, address, told, said };
}

/** Opens files the way App.svelte does: into the run view, kept, and any waiting address shown. */
async function userOpens(p: Awaited<ReturnType<typeof page>>, files: { path: string; text: string }[], reader = read) {
  const outcomes = await reader(files.map(({ path, text }) => ({ file: new File([text], path), path })));
  const opened = outcomes.flatMap((o) => (o.ok && o.runs ? [{ fileName: o.fileName, runs: o.runs }] : []));
  p.runs.add(opened);
  const keeping = p.keeper.keep(files.map(({ path, text }, i) => ({ fileName: path, source: new Blob([text]), runs: opened[i].runs })));
  p.address.opened();
  await keeping;
}

/** Waits for the address's reopening from the store to finish. */
async function settled(): Promise<void> {
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('a run address after a reload and in a new tab', () => {
  it('reopens the kept files and shows the same run and step', async () => {
    const browser: FakeBrowser = installFakeBrowser();
    const name = `keeper-${++counter}`;
    const first = await page(name);
    await userOpens(first, [{ path: 'hand/1.json', text: logText('a') }, { path: 'hand/2.json', text: logText('b') }]);
    const run = first.runs.runs[1];
    const step = run.run.steps[2].id;
    history.pushState(null, '', `/#${runsHash({ key: run.key, stepId: step })}`);

    // A reload, or the address pasted in a new tab: nothing is open, the address names the step.
    const second = await page(name);
    second.address.apply();
    await settled();
    expect(second.runs.runs.map((r) => r.key)).toEqual(first.runs.runs.map((r) => r.key));
    expect(second.runs.selectedKey).toBe(run.key);
    expect(second.runs.selectedStepId).toBe(step);
    expect(second.said).toEqual([]);
    expect(browser.entries[browser.index]).toBe(`http://localhost/#${runsHash({ key: run.key, stepId: step })}`);
  });

  it('finds a run whose key named its file (ids repeated across files opened apart), and corrects the address', async () => {
    installFakeBrowser();
    // Runs named by their question, as formats that carry their own run ids do: two files may repeat one.
    const byQuestion: ReadRunFiles = async (files) => (await read(files)).map((o) => (o.ok && o.runs ? { ...o, runs: { ...o.runs, runs: o.runs.runs.map((r) => ({ ...r, id: 'q-7' })) } } : o));
    const name = `keeper-${++counter}`;
    const first = await page(name, { read: byQuestion });
    await userOpens(first, [{ path: 'a.json', text: logText('a') }], byQuestion);
    await userOpens(first, [{ path: 'b.json', text: logText('b') }], byQuestion);
    expect(first.runs.runs.map((r) => [r.key, r.fileName])).toEqual([['b.json q-7', 'b.json'], ['q-7', 'a.json']]);

    history.pushState(null, '', `/#${runsHash({ key: 'b.json q-7', stepId: '1' })}`);
    const second = await page(name, { read: byQuestion });
    second.address.apply();
    await settled();
    // b.json reopens alone (it was opened alone), so its run has its plain id again, and the address says so.
    expect(second.runs.runs.map((r) => [r.key, r.fileName])).toEqual([['q-7', 'b.json']]);
    expect(second.runs.selectedStepId).toBe('1');
    expect(location.hash).toBe('#runs/q-7/1');
  });

  it('says plainly when the file is not kept in this browser, offers to open it, and shows the place once it is opened', async () => {
    installFakeBrowser('http://localhost/#runs/hand%2F3/2');
    const elsewhere = await page(`keeper-${++counter}`);
    elsewhere.address.apply();
    await settled();
    expect(elsewhere.runs.open).toBe(false);
    expect(elsewhere.said).toEqual([{ message: 'This address names the run "hand/3", whose file is not kept in this browser: it was opened in another browser, or removed from this one. Open the file to see it.', action: true }]);
    // Another file first: the address's run is not in it, and the page says so.
    await userOpens(elsewhere, [{ path: 'hand/4.json', text: logText('y') }]);
    expect(elsewhere.said[1]).toEqual({ message: 'This address names the run "hand/3", which is not in the files just opened.', action: true });
    elsewhere.runs.close();
    elsewhere.address.apply();
    await settled();
    await userOpens(elsewhere, [{ path: 'hand/3.json', text: logText('z') }]);
    expect(elsewhere.runs.selectedKey).toBe('hand/3');
    expect(elsewhere.runs.selectedStepId).toBe('2');
    expect(location.hash).toBe('#runs/hand%2F3/2');
  });

  it('a removed file reads as not kept; a window without storage says so', async () => {
    installFakeBrowser();
    const name = `keeper-${++counter}`;
    const first = await page(name);
    await userOpens(first, [{ path: 'x.json', text: logText('x') }]);
    const store = first.keeper.store;
    if (!store) throw new Error('the store should be open');
    const [group] = await store.list();
    await store.remove(group.id);
    history.pushState(null, '', '/#runs/x');
    const second = await page(name);
    second.address.apply();
    await settled();
    expect(second.said[0].message).toMatch(/not kept in this browser: it was opened in another browser, or removed from this one/);

    const noStorage = await page(name, { store: false });
    noStorage.address.apply();
    await settled();
    expect(noStorage.said[0].message).toMatch(/this window cannot use the browser's storage/);
    expect(await noStorage.keeper.restore({ key: 'x' })).toEqual({ status: 'unavailable' });
  });

  it('the list address reopens the newest kept files', async () => {
    installFakeBrowser();
    const name = `keeper-${++counter}`;
    const first = await page(name);
    await userOpens(first, [{ path: 'old.json', text: logText('o') }]);
    await userOpens(first, [{ path: 'n/1.json', text: logText('1') }, { path: 'n/2.json', text: logText('2') }]);
    history.pushState(null, '', '/#runs');
    const second = await page(name);
    second.address.apply();
    // Reading the kept files back takes a number of turns that depends on the machine's load.
    await settle(() => second.runs.runs.length > 0, 'the kept files reopened');
    await settled();
    expect(second.runs.runs.map((r) => r.key)).toEqual(['n/1', 'n/2']);
    expect(second.runs.selectedKey).toBeNull();
  });

  it('an address changed while the kept files are read (Back pressed) is the one shown, and the files open once', async () => {
    const browser = installFakeBrowser();
    const name = `keeper-${++counter}`;
    const first = await page(name);
    await userOpens(first, [{ path: 'k/1.json', text: logText('1') }, { path: 'k/2.json', text: logText('2') }]);
    history.pushState(null, '', '/#runs/k%2F1/1');
    history.pushState(null, '', '/#runs/k%2F2/2');
    const second = await page(name);
    second.address.apply();
    browser.back();
    second.address.apply();
    await settled();
    expect(second.runs.runs.map((r) => r.key)).toEqual(['k/1', 'k/2']);
    expect([second.runs.selectedKey, second.runs.selectedStepId]).toEqual(['k/1', '1']);
  });

  it('a list address with nothing kept says so for the list', async () => {
    installFakeBrowser('http://localhost/#runs');
    const p = await page(`keeper-${++counter}`);
    p.address.apply();
    await settled();
    expect(p.said).toEqual([{ message: 'This address names a list of recorded runs, and no trace file is kept in this browser: they were opened in another browser, or removed from this one. Open the files to see them.', action: true }]);
  });

  it('waits for the store to open before reading the address', async () => {
    installFakeBrowser();
    const name = `keeper-${++counter}`;
    const first = await page(name);
    await userOpens(first, [{ path: 'w.json', text: logText('w') }]);
    history.pushState(null, '', '/#runs/w');
    const runs = new RunsState();
    const keeper = new RunsKeeper({ runs, read, tell: () => {} });
    const address = new RunsAddress(runs, () => {}, (place) => keeper.restore(place));
    address.apply();
    await settled();
    expect(runs.open).toBe(false);
    keeper.useStore((await openStore(name)).runFiles);
    await settled();
    expect(runs.selectedKey).toBe('w');
  });
});

describe('keeping files', () => {
  it('files too large to keep stay open and the page says they are not kept', async () => {
    installFakeBrowser();
    const p = await page(`keeper-${++counter}`, { runFileLimit: 100 });
    await userOpens(p, [{ path: 'big.json', text: logText('big') }]);
    expect(p.runs.open).toBe(true);
    expect(p.told).toEqual([{ title: 'Trace files not kept in this browser', message: expect.stringMatching(/larger than this browser keeps for the run view \(0\.0 MB\)/) }]);
    expect(await p.keeper.store?.list()).toEqual([]);
  });

  it('a full disk becomes the storage banner; the runs stay open and what was kept stays', async () => {
    installFakeBrowser();
    const p = await page(`keeper-${++counter}`);
    await userOpens(p, [{ path: 'kept.json', text: logText('k') }]);
    const quota = simulateQuota();
    try {
      quota.arm(0);
      await userOpens(p, [{ path: 'more.json', text: logText('m') }]);
    } finally {
      quota.restore();
    }
    expect(p.keeper.problem).toBeInstanceOf(StorageFullError);
    expect((p.keeper.problem as Error).message).toMatch(/could not keep the trace file in this browser/);
    expect(p.runs.runs.map((r) => r.key)).toEqual(['kept', 'more']);
    expect((await p.keeper.store?.list())?.map((g) => g.files[0].fileName)).toEqual(['kept.json']);
    // Space again: the next file is kept and the banner goes.
    await userOpens(p, [{ path: 'third.json', text: logText('t') }]);
    expect(p.keeper.problem).toBeNull();
  });
});
