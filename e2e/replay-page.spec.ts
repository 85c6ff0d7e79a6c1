import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { scriptedModel } from '../src/replay/testing/runs.ts';
import { scripted, tripExport, tripWhoWhenLog } from '../src/app/replay/testing/trip-run.ts';
import { downloadedText, sessionRow, waitForStored } from './fixtures.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

/**
 * "Blame this run" in the page: a recorded run (a small Langfuse export, trip-run.ts) is blamed
 * against a loopback endpoint scripted so the culprit is known (the researcher's answer): it is
 * ranked first, with each distinct request sent once.
 */

/** Drops the run, sets the outcome and the model, and blames it; resolves when the analysis is done. */
async function blameTrip(page: Page, url: string) {
  await page.goto('./');
  await dropFiles(page, [{ name: 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
  await page.getByRole('button', { name: 'Blame this run' }).click();
  const setup = page.getByRole('region', { name: 'Blame this run' });
  await setup.getByLabel('The final answer contains').fill('/monday/i');
  await setModel(page, url);
  await setup.getByRole('button', { name: 'Blame', exact: true }).click();
  await waitForDone(page);
}

async function setModel(page: Page, url: string) {
  await page.getByLabel('Base URL').fill(url);
  await page.getByLabel('Base URL').dispatchEvent('change');
  await page.getByLabel('Model id').fill('scripted');
  await page.getByLabel('Model id').dispatchEvent('change');
}

test('a dropped run is blamed from the run view: the planted turn ranks first, each request sent once', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted });
  try {
    await page.goto('./');
    await dropFiles(page, [{ name: 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
    const run = page.getByRole('region', { name: /^Run / });
    await expect(run).toBeVisible();
    // The dependency graph: the writer's request quotes the researcher's answer (step numbers as the run view shows them).
    const writer = page.getByRole('listbox', { name: 'Steps' }).getByRole('option').filter({ hasText: 'Writer chat' });
    await expect(writer.locator('.quotes')).toContainText('←');

    await run.getByRole('button', { name: 'Blame this run' }).click();
    const setup = page.getByRole('region', { name: 'Blame this run' });
    await expect(setup.getByRole('table', { name: 'Turns and their fixes' }).getByRole('row')).toHaveCount(6);
    // Model turns show their default fix; the tool turn is kept from the record.
    await expect(setup.getByRole('textbox', { name: /^Fix of step .* \(Researcher\)/ }).first()).toHaveAttribute('placeholder', 'repair (default)');
    await expect(setup.getByRole('button', { name: 'Blame', exact: true })).toBeDisabled();
    await expect(setup.getByRole('alert')).toContainText('Say how success is decided');
    await setup.getByLabel('The final answer contains').fill('/monday/i');
    await setModel(page, endpoint.url);
    await expect(setup.getByTestId('replay-cache-count')).toContainText(/The cache answers 0 of at most \d+ requests/, { timeout: 30_000 });
    expect(endpoint.requests).toHaveLength(0);
    await setup.screenshot({ path: test.info().outputPath('replay-setup.png') });

    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);
    const sent = endpoint.requests.length;
    expect(sent).toBeGreaterThan(0);
    expect(new Set(endpoint.requests.map((r) => JSON.stringify(r))).size).toBe(sent);
    await expect(page.getByText(/could not be analysed/)).toHaveCount(0);

    // The Replay view: the researcher's answer first, linked back to its step in the run.
    await page.getByRole('tab', { name: 'Replay' }).click();
    const players = page.getByRole('region', { name: 'Replay' }).locator('ol.players > li');
    await expect(players.first()).toContainText('Researcher');
    await expect(players.first().getByTestId('replay-shapley')).toHaveText('1.000');

    // The single-step contrast beside the ranking: regenerating from the researcher's answer on succeeds, keeping it fails.
    const contrast = page.getByRole('region', { name: 'Single-step contrast' });
    await contrast.getByLabel('Replays per arm').fill('3');
    await contrast.getByRole('button', { name: 'Run the contrast' }).click();
    await expect(contrast.getByTestId('commitment')).toContainText('No point of commitment', { timeout: 60_000 });
    const answerRow = contrast.locator('tbody tr').nth(2);
    await expect(answerRow).toContainText('Researcher');
    await expect(answerRow.locator('td').nth(2)).toContainText('0%');
    await expect(answerRow.locator('td').nth(3)).toContainText('100%');
    expect(new Set(endpoint.requests.map((r) => JSON.stringify(r))).size).toBe(endpoint.requests.length);
    await page.screenshot({ path: test.info().outputPath('replay-result.png'), fullPage: true });

    // The generated definition is in the Definition view, as any definition.
    await page.getByRole('tab', { name: 'Definition' }).click();
    await expect(page.getByText('generated by agentblame').first()).toBeVisible();

    // The session file carries the replay and the responses it used.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export session' }).click();
    const session = JSON.parse(await downloadedText(await downloading)) as { pipeline?: { source: string }; modelCache?: unknown[]; cases: { inputs: { recording?: unknown } }[] };
    expect(session.pipeline?.source).toContain('replaySegment');
    expect(session.cases[0].inputs.recording).toBeDefined();
    // The Shapley study's responses (the contrast replays are not part of the session).
    expect(session.modelCache).toHaveLength(sent);

    // And the report, as for any study.
    const reporting = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export report' }).click();
    const report = await downloadedText(await reporting);
    expect(report).toContain('replay of museum visit');
    expect(report).toContain('6 Researcher');

    // Back to the run: the player's step is selected there.
    await page.getByRole('tab', { name: 'Replay' }).click();
    await players.first().getByRole('button', { name: /^step \d+$/ }).click();
    await expect(page.getByRole('listbox', { name: 'Steps' }).getByRole('option', { selected: true })).toContainText('Researcher chat');
    await expect(page.getByRole('navigation', { name: 'Replay dependencies' })).toContainText('Quoted by');
    await page.screenshot({ path: test.info().outputPath('replay-run-view.png'), fullPage: true });
    // And to the study again.
    await page.getByRole('button', { name: 'Back to the study' }).click();
    await expect(page.getByRole('tab', { name: 'Replay' })).toBeVisible();
  } finally {
    await endpoint.close();
  }
});

test('a replay is saved like any study: listed under Recent sessions, and its exported file re-analyses elsewhere with no model', async ({ page, browser, baseURL }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted });
  try {
    await blameTrip(page, endpoint.url);
    const sent = endpoint.requests.length;
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export session' }).click();
    const file = await downloadedText(await downloading);

    // Saved in this browser, finished; after a new visit of the start page it is among the recent sessions and opens with its results.
    const stored = await waitForStored(page, (s) => s.status === 'done' && s.casesAnalysed === s.caseCount);
    expect(stored.name).toBe('replay of museum visit');
    await page.goto('./');
    await sessionRow(page, stored.id).getByTestId('session-open').click();
    await waitForDone(page);
    await page.getByRole('tab', { name: 'Replay' }).click();
    const players = page.getByRole('region', { name: 'Replay' }).locator('ol.players > li');
    await expect(players.first()).toContainText('Researcher');
    // The run itself is not open here: its turns are named, without links.
    await expect(page.getByRole('region', { name: 'Replay' })).toContainText('not open in the run view');

    // Another browser profile, no endpoint: the file brings its responses.
    const elsewhere = await browser.newContext({ baseURL });
    const other = await elsewhere.newPage();
    await other.goto('./');
    await other.getByLabel('Open trace').setInputFiles({ name: 'trip.session.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await waitForDone(other);
    await other.getByRole('tab', { name: 'Replay' }).click();
    const there = other.getByRole('region', { name: 'Replay' }).locator('ol.players > li');
    await expect(there.first()).toContainText('Researcher');
    await expect(there.first().getByTestId('replay-shapley')).toHaveText('1.000');
    await elsewhere.close();
    expect(endpoint.requests.length).toBe(sent);
  } finally {
    await endpoint.close();
  }
});

test('a run of the runs list is blamed from its row: a Who&When log, judged by its recorded answer', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted });
  try {
    await page.goto('./');
    const log = tripWhoWhenLog();
    await dropFiles(page, [
      { name: 'trip-1.json', content: log, type: 'application/json' },
      { name: 'trip-2.json', content: log, type: 'application/json' },
    ]);
    const list = page.getByRole('region', { name: 'Runs' });
    await expect(list).toContainText('2 runs');
    await list.getByRole('listitem').filter({ hasText: 'trip-1' }).getByRole('button', { name: 'Blame', exact: true }).click();
    const setup = page.getByRole('region', { name: 'Blame this run' });
    // No outcome typed: the log's correct answer is the default, so Blame is ready once a model is set.
    await expect(setup.getByLabel('The final answer contains')).toHaveAttribute('placeholder', "Monday (the run's recorded answer)");
    await setModel(page, endpoint.url);
    await expect(setup.getByTestId('replay-cache-count')).toContainText('The cache answers 0 of at most', { timeout: 30_000 });
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);
    await page.getByRole('tab', { name: 'Replay' }).click();
    const players = page.getByRole('region', { name: 'Replay' }).locator('ol.players > li');
    await expect(players.first()).toContainText('2 Researcher');
    await expect(players.first().getByTestId('replay-shapley')).toHaveText('1.000');
    expect(new Set(endpoint.requests.map((r) => JSON.stringify(r))).size).toBe(endpoint.requests.length);

    // Blamed again with the same choices, the cache answers every request and nothing is sent.
    const sent = endpoint.requests.length;
    await page.getByRole('button', { name: 'Back to the runs' }).click();
    await page.getByRole('button', { name: 'Blame this run' }).click();
    await expect(setup.getByTestId('replay-cache-count')).toContainText(`The cache answers ${sent} of ${sent} requests: nothing will be sent`, { timeout: 30_000 });
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);
    expect(endpoint.requests.length).toBe(sent);
  } finally {
    await endpoint.close();
  }
});

test("the README's example blamed in the page: the Langfuse export with its tool stubs, the calculator first", async ({ page }) => {
  const endpoint = await startFakeEndpoint({ answer: scriptedModel, models: ['gpt-test', 'fake-model'] });
  const example = (name: string) => readFileSync(new URL(`../docs/examples/replay/${name}`, import.meta.url), 'utf8');
  try {
    await page.goto('./');
    await dropFiles(page, [{ name: 'multiply.langfuse.json', content: example('multiply.langfuse.json'), type: 'application/json' }]);
    await page.getByRole('button', { name: 'Blame this run' }).click();
    const setup = page.getByRole('region', { name: 'Blame this run' });
    await setup.getByLabel('Tool stubs').setInputFiles({ name: 'tools.js', mimeType: 'text/javascript', buffer: Buffer.from(example('tools.js')) });
    await expect(setup).toContainText('tools.js: stubs python');
    await setup.getByLabel('The final answer contains').fill('42');
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);
    await page.getByRole('tab', { name: 'Replay' }).click();
    const players = page.getByRole('region', { name: 'Replay' }).locator('ol.players > li');
    await expect(players.first()).toContainText('Calculator');
    await expect(players.first().getByTestId('replay-shapley')).toHaveText('1.000');
    // The stub ran every changed call: no tool turn reused its record.
    await expect(page.getByTestId('tools-reused')).toHaveCount(0);
    expect(new Set(endpoint.requests.map((r) => JSON.stringify(r))).size).toBe(endpoint.requests.length);
  } finally {
    await endpoint.close();
  }
});

test('"Most tokens per answer" in the setup\'s Model panel caps every replay request, as --model-param default.max_tokens does', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted });
  try {
    await page.goto('./');
    await dropFiles(page, [{ name: 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
    await page.getByRole('button', { name: 'Blame this run' }).click();
    const setup = page.getByRole('region', { name: 'Blame this run' });
    await setup.getByLabel('The final answer contains').fill('/monday/i');
    await setModel(page, endpoint.url);
    const field = setup.getByLabel('Most tokens per answer');
    await field.fill('ten');
    await field.dispatchEvent('change');
    await expect(setup.getByRole('alert').filter({ hasText: 'Most tokens per answer' })).toContainText('not a whole number');
    await field.fill('48');
    await field.dispatchEvent('change');
    await expect(setup.getByRole('alert').filter({ hasText: 'Most tokens per answer' })).toHaveCount(0);
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);
    expect(endpoint.requests.length).toBeGreaterThan(0);
    expect(endpoint.requests.every((r) => r.max_tokens === 48)).toBe(true);
  } finally {
    await endpoint.close();
  }
});
