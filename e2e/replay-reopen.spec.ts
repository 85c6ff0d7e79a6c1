import { expect, test } from '@playwright/test';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { scripted } from '../src/app/replay/testing/trip-run.ts';
import { openTripSetup, setField } from './replay-helpers.ts';
import { waitForDone } from './workbench-helpers.ts';

/**
 * A replay study reopened later: each Blame of one run is its own session, named apart in Recent
 * sessions; reopened from there or by a reload of its address, it takes the run's file kept in this
 * browser (its turns link to their steps, the run is behind it) instead of asking for the file, and
 * asks only once the kept copy is gone, saying so.
 */

const ENDPOINT_PORT = Number(process.env.E2E_ENDPOINT_PORT ?? 0);

test("repeated Blames of a run are named apart; a reopened replay uses the run's file kept in this browser, and asks for it only once it is gone", async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted, port: ENDPOINT_PORT });
  try {
    const setup = await openTripSetup(page, { outcome: '/monday/i', endpoint: endpoint.url });
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);
    // Blamed again with another outcome: a second session of the same run.
    await page.getByRole('button', { name: 'Back to the runs' }).click();
    await page.getByRole('button', { name: 'Blame this run' }).click();
    await setup.getByLabel('The final answer contains').fill('Monday');
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);

    await page.goto('./');
    const names = page.getByTestId('session-open');
    await expect(names).toHaveCount(2);
    expect((await names.allInnerTexts()).map((n) => n.trim()).sort()).toEqual(['replay of museum visit', 'replay of museum visit #2']);
    await expect(page.getByTestId('kept-run-file')).toHaveCount(1);

    // Reopened from Recent sessions: the run comes from the kept file, not from the user.
    await names.filter({ hasText: /^\s*replay of museum visit\s*$/ }).click();
    await waitForDone(page);
    await page.getByRole('tab', { name: 'Replay' }).click();
    const replay = page.getByRole('region', { name: 'Replay' });
    await expect(replay.getByRole('button', { name: /^step \d+$/ }).first()).toBeVisible();
    await expect(replay.getByTestId('replay-run-file')).toHaveCount(0);
    const studyAddress = page.url();
    expect(studyAddress).toMatch(/#session=[^&]+&view=replay/);

    // A reload of the study's address: the same, and the study stays in front of the run.
    await page.reload();
    await expect(page).toHaveURL(studyAddress);
    await expect(replay.getByRole('button', { name: /^step \d+$/ }).first()).toBeVisible();
    await replay.getByRole('button', { name: /^step \d+$/ }).first().click();
    await expect(page.getByRole('region', { name: /^Run / })).toBeVisible();

    // The kept copy removed: the reopened replay says it is gone and asks for the file.
    await page.goto('./');
    await page.getByTestId('kept-run-file-remove').click();
    await page.getByTestId('kept-run-file-remove-confirm').click();
    await expect(page.getByTestId('kept-run-file')).toHaveCount(0);
    await page.goto(studyAddress);
    await page.reload();
    await expect(replay.getByTestId('replay-run-file')).toContainText("The run's file is not kept in this browser");
    await expect(replay.getByRole('button', { name: /^step \d+$/ })).toHaveCount(0);
  } finally {
    await endpoint.close();
  }
});

test("a reload of a run's Blame setup reopens it as it was left: outcome, players, fixes, stubs and model id", async ({ page }) => {
  const setup = await openTripSetup(page, { outcome: '/monday/i' });
  await expect(page).toHaveURL(/#blame\/[^/]+$/);
  await setup.getByLabel('Agents: every turn of an agent together').check();
  const fix = setup.getByRole('textbox', { name: /^Fix of step .* \(Researcher\)/ }).first();
  await fix.fill('resample\ncontext:system+=Read the page again.');
  await setField(page, 'Model id', 'scripted-kept');
  const address = page.url();

  await page.reload();
  await expect(page).toHaveURL(address);
  await expect(setup).toBeVisible();
  await expect(setup.getByLabel('The final answer contains')).toHaveValue('/monday/i');
  await expect(setup.getByLabel('Agents: every turn of an agent together')).toBeChecked();
  await expect(setup.getByRole('textbox', { name: /^Fix of step .* \(Researcher\)/ }).first()).toHaveValue('resample\ncontext:system+=Read the page again.');
  await expect(page.getByLabel('Model id')).toHaveValue('scripted-kept');
});
