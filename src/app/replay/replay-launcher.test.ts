/**
 * RunsState (the open recorded runs and the run view's selection) and ReplayLauncher ("Blame this
 * run": the setup of a run, the replay study opened from it, and the way back to the run), with
 * the page's state classes wired as App.svelte wires them (pool and importer faked, fake-indexeddb).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import type { RecordedRunFile } from '../../runs/index.ts';
import { buildReplay } from '../../replay/index.ts';
import { WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import { RunsState } from '../runs/runs-state.svelte.ts';
import { installFakeBrowser } from '../testing/fake-browser.ts';
import { pageState, type PageState } from '../testing/page-state.ts';
import { ReplayLauncher, unusedName } from './replay-launcher.svelte.ts';
import { KeptSetups } from './kept-setups.ts';

/** A recorded-run file of the Who&When log, its run renamed `id` (several files may repeat an id). */
function runFile(id = 'q-42'): RecordedRunFile {
  const file = readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json');
  return { format: file.format, runs: file.runs.map((run) => ({ ...run, id })) };
}

describe('RunsState', () => {
  it('opens one run at once, with its first step selected', () => {
    const runs = new RunsState();
    expect([runs.open, runs.shown, runs.selected]).toEqual([false, false, null]);
    runs.add([{ fileName: 'a.json', runs: runFile() }]);
    expect([runs.open, runs.shown, runs.selectedKey]).toEqual([true, true, 'q-42']);
    expect(runs.selectedStepId).toBe(runs.selected!.run.steps[0].id);
  });

  it('keys runs uniquely when ids repeat, lists them in natural order of their keys, and waits for a pick among several', () => {
    const runs = new RunsState();
    runs.add([{ fileName: 'a.json', runs: runFile('r1') }, { fileName: 'b.json', runs: runFile('r1') }]);
    runs.add([{ fileName: 'b.json', runs: runFile('r1') }, { fileName: 'c.json', runs: runFile('r2') }]);
    expect(runs.runs.map((r) => r.key)).toEqual(['b.json r1', 'b.json r1 (2)', 'r1', 'r2']);
    expect(runs.runs.map((r) => r.fileName)).toEqual(['b.json', 'b.json', 'a.json', 'c.json']);
    expect(runs.selectedKey).toBeNull();
    runs.select('b.json r1 (2)');
    expect(runs.selected?.fileName).toBe('b.json');
    runs.select(null);
    expect([runs.selected, runs.selectedStepId]).toEqual([null, null]);
  });

  it('hides behind a study made from a run, and closes everything', () => {
    const runs = new RunsState();
    runs.add([{ fileName: 'a.json', runs: runFile() }]);
    runs.behindStudy = true;
    expect([runs.open, runs.shown]).toEqual([true, false]);
    runs.problems = ['x.json: not a run'];
    runs.close();
    expect([runs.runs, runs.predictions, runs.selectedKey, runs.selectedStepId, runs.problems, runs.behindStudy]).toEqual([[], null, null, null, [], false]);
  });
});

describe('ReplayLauncher', () => {
  let page: PageState;
  let runs: RunsState;
  let launcher: ReplayLauncher;

  beforeEach(async () => {
    vi.stubGlobal('indexedDB', new IDBFactory());
    installFakeBrowser();
    page = pageState();
    await page.sync.init();
    runs = new RunsState();
    runs.add([{ fileName: 'a.json', runs: runFile('r1') }, { fileName: 'b.json', runs: runFile('r2') }]);
    launcher = new ReplayLauncher({ runs, runner: page.runner, opener: page.opener });
  });
  afterEach(() => {
    page.sync.store?.close();
    vi.unstubAllGlobals();
  });

  it('opens the setup of a run (selected, the study\'s model ids given), and cancels it', () => {
    expect(launcher.runner).toBe(page.runner);
    launcher.begin('nobody');
    expect(launcher.setup).toBeNull();
    page.runner.settings = { ...page.runner.settings, models: { default: 'tiny' } };
    launcher.begin('r2');
    expect(runs.selectedKey).toBe('r2');
    expect(launcher.setup?.fileName).toBe('b.json');
    expect(launcher.setup?.models).toEqual({ default: 'tiny' });
    expect(launcher.settingsFor(launcher.setup!)).toEqual({ ...page.runner.defaultSettings(), models: { default: 'tiny' } });
    // The Model panel's "Most tokens per answer" reaches the study as the command's --model-param default.max_tokens.
    launcher.setup!.modelParams = { default: { max_tokens: 64 } };
    expect(launcher.settingsFor(launcher.setup!)).toEqual({ ...page.runner.defaultSettings(), models: { default: 'tiny' }, modelParams: { default: { max_tokens: 64 } } });
    launcher.cancel();
    expect(launcher.setup).toBeNull();
    expect(launcher.count.state).toEqual({ status: 'idle' });
  });

  it('starts the replay as a new study in front of the runs, and finds its way back to a turn', async () => {
    launcher.begin('r1');
    const setup = launcher.setup!;
    setup.models = { default: 'tiny' };
    expect(setup.result.ok).toBe(true);
    if (!setup.result.ok) return;
    const definition = setup.result.definition;
    await launcher.start(definition);
    expect(launcher.setup).toBeNull();
    expect(runs.behindStudy).toBe(true);
    expect(runs.shown).toBe(false);
    expect(page.runner.study).toMatchObject({ fileName: 'a.json', name: definition.name, pipeline: { source: definition.source } });
    expect(page.runner.study?.cases).toEqual(definition.cases);
    expect(page.runner.settings.models).toEqual({ default: 'tiny' });
    expect(page.sync.identity?.name).toBe(definition.name);
    // From a player of the study back to its turn in the run view.
    const open = launcher.runOf({ id: 'r2' })!;
    expect(open.fileName).toBe('b.json');
    expect(launcher.runOf({ id: 'elsewhere' })).toBeNull();
    launcher.showStep(open, 2);
    expect([runs.selectedKey, runs.selectedStepId, runs.shown]).toEqual(['r2', open.run.steps[2].id, true]);
    launcher.backToStudy();
    expect(runs.shown).toBe(false);
  });

  it("keeps each run's setup as it was left: reopened after Cancel or a Blame, it has its outcome, stubs and fixes", async () => {
    launcher.begin('r1');
    const first = launcher.setup!;
    expect(launcher.setupKey).toBe('r1');
    first.expect = '/monday/i';
    first.fixes = { 2: 'resample' };
    first.tools = { file: { fileName: 'tools.js', source: 'export default { python: () => 42 };' }, names: new Set(['python']) };
    launcher.cancel();
    expect(launcher.setupKey).toBeNull();
    // Another run has a setup of its own.
    launcher.begin('r2');
    expect(launcher.setup).not.toBe(first);
    expect(launcher.setup?.expect).toBe('');
    launcher.begin('r1');
    expect(launcher.setup).toBe(first);
    expect([first.expect, first.fixes, first.tools?.file.fileName]).toEqual(['/monday/i', { 2: 'resample' }, 'tools.js']);
    first.models = { default: 'tiny' };
    if (!first.result.ok) throw new Error(first.result.problem);
    await launcher.start(first.result.definition);
    expect([launcher.setup, launcher.setupKey, launcher.opening]).toEqual([null, null, false]);
    launcher.begin('r1');
    expect(launcher.setup).toBe(first);
  });

  it('names each Blame of one run apart from the sessions stored before it (#2, #3), so Recent sessions shows each name once', async () => {
    page.runs.add([{ fileName: 'a.json', runs: runFile('r1') }]);
    const names = async () => (await page.sync.store!.list()).map((s) => s.name).sort();
    const blame = async (expect: string) => {
      page.replay.begin('r1');
      const setup = page.replay.setup!;
      setup.models = { default: 'tiny' };
      setup.expect = expect;
      if (!setup.result.ok) throw new Error(setup.result.problem);
      await page.replay.start(setup.result.definition);
      return setup.result.definition.name;
    };
    const base = await blame('42');
    await vi.waitFor(async () => expect(await names()).toEqual([base]));
    await blame('/forty-two/');
    await vi.waitFor(async () => expect(await names()).toEqual([base, `${base} #2`]));
    expect(page.sync.identity?.name).toBe(`${base} #2`);
    await blame('42');
    await vi.waitFor(async () => expect(await names()).toEqual([base, `${base} #2`, `${base} #3`]));
    expect(unusedName('x', ['x', 'x #3'])).toBe('x #2');
    expect(unusedName('y', ['x'])).toBe('y');
  });

  it("reopens a run's setup from this browser's kept setups in a new page, and says when the storage refuses to keep it", () => {
    const items = new Map<string, string>();
    let refuse = false;
    const storage = { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => { if (refuse) throw new Error('quota exceeded'); items.set(key, value); } };
    const first = new ReplayLauncher({ runs, runner: page.runner, opener: page.opener, keptSetups: new KeptSetups(storage) });
    first.begin('r1');
    first.setup!.expect = '/forty-two/';
    first.setup!.setFix(2, 'resample');
    first.keep(first.setup!);
    expect(first.keepProblem).toBe('');
    // A new page (a reload): another launcher over the same storage.
    const again = new ReplayLauncher({ runs, runner: page.runner, opener: page.opener, keptSetups: new KeptSetups(storage) });
    again.begin('r1');
    expect([again.setup?.expect, again.setup?.fixes]).toEqual(['/forty-two/', { 2: 'resample' }]);
    again.begin('r2');
    expect(again.setup?.expect).toBe('');
    refuse = true;
    again.keep(again.setup!);
    expect(again.keepProblem).toMatch(/could not be kept in this browser \(quota exceeded\)/);
    refuse = false;
    again.keep(again.setup!);
    expect(again.keepProblem).toBe('');
  });

  it('does nothing on start without a setup, and stays on the runs going back without a study', async () => {
    await launcher.start(buildReplay([runFile().runs[0]], { players: 'steps', fixes: [], outcome: null, origin: 'a.json' }));
    expect(page.runner.study).toBeNull();
    expect(launcher.backToStudy()).toBe(false);
    expect(runs.behindStudy).toBe(false);
  });
});
