/**
 * UrlSync: the address and title follow what the page shows, and an address (on load, or Back and
 * Forward) opens what it names. Against the fake browser (address, history, title, fetch), fake
 * IndexedDB, the in-process importer and the fake analysis pool.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import { session as sampleSession } from '../../session/testing/sample-session.ts';
import { installFakeBrowser, type FakeBrowser } from '../testing/fake-browser.ts';
import { traceText } from '../testing/in-process-import.ts';
import { pageState, type PageState } from '../testing/page-state.ts';
import { settle } from '../testing/settle.ts';
import { fromHash } from './url-state.ts';
import { UrlSync } from './url-sync.svelte.ts';

const PIPELINE = { name: 'refund', source: 'export default { name: "refund" }' };

let page: PageState;
let browser: FakeBrowser;
let address: UrlSync;

function load(url: string): void {
  vi.stubGlobal('indexedDB', new IDBFactory());
  browser = installFakeBrowser(url);
  browser.files.set('/demos/refund-policy.trace.json', { body: traceText(['q1', 'q2'], PIPELINE) });
  page = pageState();
  address = new UrlSync({ ...page, viewLabel: () => `view ${page.nav.view}` });
}

const here = () => new URL(browser.entries[browser.index]);
const hashState = () => fromHash(here().hash);

beforeEach(() => load('http://localhost/'));
afterEach(() => {
  page.sync.store?.close();
  vi.unstubAllGlobals();
});

describe('UrlSync writing the address', () => {
  it('titles the page by the study and view, or the app on the start page', async () => {
    await address.start();
    address.write();
    expect(browser.document.title).toBe('agentblame');
    await page.opener.openSource(traceText(['q1'], PIPELINE), 'refund.trace.json');
    page.nav.show('steps');
    expect(address.title()).toBe('refund · view steps · agentblame');
    address.write();
    expect(browser.document.title).toBe('refund · view steps · agentblame');
    await page.sync.rename('my refund');
    expect(address.title()).toBe('my refund · view steps · agentblame');
  });

  it('writes nothing before the address the page was opened with is applied', async () => {
    await page.sync.init();
    await page.opener.openSource(traceText(['q1'], PIPELINE), 'refund.trace.json');
    address.write();
    expect(browser.entries).toEqual(['http://localhost/']);
    expect(browser.document.title).toBe('refund · view batch · agentblame');
  });

  it('pushes a new view, case or study, and replaces a new filter or sort', async () => {
    await address.start();
    await page.opener.openSource(traceText(['q1', 'q2'], PIPELINE), 'refund.trace.json');
    address.write();
    expect(browser.entries).toHaveLength(2);
    expect(hashState()).toMatchObject({ session: page.sync.identity!.id, view: 'batch' });
    page.nav.filter = 'q';
    page.nav.sortBy({ by: 'id' });
    address.write();
    expect(browser.entries).toHaveLength(2);
    expect(hashState()).toMatchObject({ filter: 'q', sort: { by: 'id' } });
    page.nav.openCase('q2');
    address.write();
    expect(browser.entries).toHaveLength(3);
    expect(hashState()).toMatchObject({ view: 'case', caseId: 'q2', filter: 'q' });
    // Nothing changed: no entry.
    address.write();
    expect(browser.entries).toHaveLength(3);
    // The search part (?workers=, ?trace=) is kept.
    expect(here().pathname).toBe('/');
  });

  it('carries the settings only for a study a link can reopen from elsewhere (a demo or ?trace=)', async () => {
    await address.start();
    await page.opener.openSource(traceText(['q1'], PIPELINE), 'refund.trace.json');
    page.runner.updateSettings({ seed: 9 });
    expect(address.current().settings).toEqual({});
    await page.opener.openDemo('refund-policy');
    page.runner.updateSettings({ seed: 9 });
    expect(address.current()).toMatchObject({ demo: 'refund-policy', settings: { seed: 9 } });
    address.write();
    expect(hashState()).toMatchObject({ demo: 'refund-policy', settings: { seed: 9 } });
  });
});

describe('UrlSync applying the address', () => {
  it('opens nothing for an empty address', async () => {
    await address.start();
    expect(page.runner.study).toBeNull();
    expect(page.sync.store).not.toBeNull();
  });

  it('opens the demo a link names, with its view and settings', async () => {
    load('http://localhost/#demo=refund-policy&view=case&case=q2&seed=5');
    await address.start();
    expect(page.runner.study?.fileName).toBe('refund-policy.trace.json');
    expect(page.opener.demo).toBe('refund-policy');
    expect([page.nav.view, page.nav.caseId]).toEqual(['case', 'q2']);
    expect(page.runner.settings).toEqual({ ...DEFAULT_SETTINGS, seed: 5 });
  });

  it('opens a link with no cap, a budget and interactions: the settings every host takes from the schema', async () => {
    load('http://localhost/#demo=refund-policy&budget=40&maxPermutations=none&interactions=true');
    await address.start();
    expect(page.runner.settings).toEqual({ ...DEFAULT_SETTINGS, budget: 40, maxPermutations: Number.POSITIVE_INFINITY, interactions: true });
  });

  it('ignores every setting of a link with one out of its bounds, naming it', async () => {
    load('http://localhost/#demo=refund-policy&mode=prior&worlds=100001');
    await address.start();
    expect(page.opener.notice?.problem.message).toBe('address.worlds: expected a whole number from 1 to 100000, got "100001"');
    expect(page.runner.settings).toEqual(DEFAULT_SETTINGS);
  });

  it('ignores a link\'s settings that a session could not hold, and says so', async () => {
    load('http://localhost/#demo=refund-policy&worlds=-3');
    await address.start();
    expect(page.opener.notice?.title).toBe('Ignored the settings in the address');
    expect(page.opener.notice?.problem.message).toMatch(/worlds/);
    expect(page.runner.settings).toEqual(DEFAULT_SETTINGS);
    expect(page.runner.study).not.toBeNull();
  });

  it('reopens a session stored in this browser, and falls back to its demo where it is not', async () => {
    load('http://localhost/');
    await page.sync.init();
    const stored = await page.sync.store!.importSession(sampleSession({ fileName: 'refund-policy.trace.json' }));
    browser.entries[0] = `http://localhost/#session=${stored.id}&demo=refund-policy&view=steps`;
    await address.start();
    expect(page.sync.identity?.id).toBe(stored.id);
    expect(page.opener.demo).toBe('refund-policy');
    expect(page.nav.view).toBe('steps');
    expect(page.runner.study?.cases.map((c) => c.id)).toEqual(['q1', 'q2', 'q3']);
    // Another browser: the session is not there, the demo is.
    page.sync.store!.close();
    load(`http://localhost/#session=${stored.id}&demo=refund-policy`);
    await address.start();
    expect(page.runner.study?.cases.map((c) => c.id)).toEqual(['q1', 'q2']);
    expect(page.sync.identity?.id).not.toBe(stored.id);
  });

  it('opens the ?trace= file of this site, and names what is wrong with another', async () => {
    load('http://localhost/?trace=/files/mine.trace.json');
    browser.files.set('/files/mine.trace.json', { body: traceText(['t1'], PIPELINE) });
    await address.start();
    expect(page.runner.study?.fileName).toBe('mine.trace.json');
    expect(page.opener.notice).toBeNull();
    page.sync.store!.close();
    load('http://localhost/?trace=/files/none.trace.json');
    await address.start();
    expect(page.runner.study).toBeNull();
    expect(page.opener.notice).toEqual({ title: 'Could not open the trace from the address', problem: { message: 'There is no file at /files/none.trace.json on this site (404 Not Found).' } });
    page.sync.store!.close();
    load('http://localhost/?trace=https://elsewhere.example/x.json');
    await address.start();
    expect(page.opener.notice?.problem.message).toMatch(/another origin, so nothing was fetched/);
    expect(browser.fetched).toEqual([]);
  });

  it('goes Back through views, and Back to the start page closes the study', async () => {
    await address.start();
    await page.opener.openSource(traceText(['q1', 'q2'], PIPELINE), 'refund.trace.json');
    address.write();
    page.nav.openCase('q1');
    address.write();
    browser.back();
    await settle(() => page.nav.view === 'batch', 'the batch view shown again');
    expect(page.nav.caseId).toBeNull();
    expect(page.runner.study).not.toBeNull();
    browser.back();
    await settle(() => page.runner.study === null, 'the study closed');
    expect(page.sync.identity).toBeNull();
  });

  it('goes Back from one study to another stored one', async () => {
    await address.start();
    await page.opener.openSource(traceText(['a1'], PIPELINE), 'first.trace.json');
    address.write();
    const first = page.sync.identity!.id;
    await settle(async () => (await page.sync.store!.get(first))?.results.length === 1 && !page.sync.saving, 'the first study stored');
    await page.opener.openSource(traceText(['b1', 'b2'], PIPELINE), 'second.trace.json');
    address.write();
    expect(browser.entries).toHaveLength(3);
    browser.back();
    await settle(() => page.sync.identity?.id === first && page.runner.study?.fileName === 'first.trace.json', 'the first study open again');
    expect(page.runner.study?.cases.map((c) => c.id)).toEqual(['a1']);
  });
});
