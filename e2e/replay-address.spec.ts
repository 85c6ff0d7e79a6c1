import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { startFakeEndpoint } from '../src/model/testing/fake-endpoint.ts';
import { scripted, tripExport } from '../src/app/replay/testing/trip-run.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

/**
 * "Blame this run" has addresses all the way: the run (`#runs/...`), its setup (`#blame/...`) and
 * the study made from it (`#session=...&view=...`). Back and Forward move between the three, a
 * reopened setup keeps its fields, and a reload of the study's address reopens the results.
 */

const ENDPOINT_PORT = Number(process.env.E2E_ENDPOINT_PORT ?? 0);

test('a blamed run: run, setup and results each have an address; Back/Forward move between them; a reload reopens the results', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted, port: ENDPOINT_PORT });
  try {
    await page.goto('./');
    await dropFiles(page, [{ name: 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
    const run = page.getByRole('region', { name: /^Run / });
    await expect(run).toBeVisible();
    await expect(page).toHaveURL(/#runs\/[^/]+\/[^/]+$/);
    const firstStep = page.url();

    // Arrow keys in the step list move the address with the selected step.
    const steps = page.getByRole('listbox', { name: 'Steps' });
    await steps.getByRole('option').first().click();
    await steps.press('ArrowDown');
    await expect(page).not.toHaveURL(firstStep);
    await expect(page).toHaveURL(/#runs\/[^/]+\/[^/]+$/);
    const runAddress = page.url();

    await run.getByRole('button', { name: 'Blame this run' }).click();
    const setup = page.getByRole('region', { name: 'Blame this run' });
    await expect(setup).toBeVisible();
    await expect(page).toHaveURL(/#blame\/[^/]+$/);
    const setupAddress = page.url();
    await setup.getByLabel('The final answer contains').fill('/monday/i');
    await setup.getByRole('textbox', { name: /^Fix of step .* \(Researcher\)/ }).first().fill('repair');
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    await page.getByLabel('Model id').fill('scripted');
    await page.getByLabel('Model id').dispatchEvent('change');
    await setup.getByRole('button', { name: 'Blame', exact: true }).click();
    await waitForDone(page);
    // The study has its own address as soon as it is open.
    await expect(page).toHaveURL(/#session=[^&]+/);
    const resultsAddress = page.url();

    // Back: the setup again, with the outcome and the fix as they were left.
    await page.goBack();
    await expect(page).toHaveURL(setupAddress);
    await expect(setup).toBeVisible();
    await expect(setup.getByLabel('The final answer contains')).toHaveValue('/monday/i');
    await expect(setup.getByRole('textbox', { name: /^Fix of step .* \(Researcher\)/ }).first()).toHaveValue('repair');
    // Back again: the run view with its header (not an orphan setup at `/`).
    await page.goBack();
    await expect(page).toHaveURL(runAddress);
    await expect(setup).toHaveCount(0);
    await expect(run).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close runs' })).toBeVisible();
    // Forward: the setup, then the results.
    await page.goForward();
    await expect(page).toHaveURL(setupAddress);
    await expect(setup).toBeVisible();
    await page.goForward();
    await expect(page).toHaveURL(resultsAddress);
    await expect(setup).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Back to the runs' })).toBeVisible();
    await page.getByRole('tab', { name: 'Replay' }).click();
    await expect(page).toHaveURL(/#session=[^&]+&view=replay/);
    await expect(page.getByRole('region', { name: 'Replay' })).toBeVisible();

    // A reload (or the link pasted in another tab) reopens the results, not the run view.
    const sent = endpoint.requests.length;
    const replayAddress = page.url();
    await page.reload();
    await expect(page).toHaveURL(replayAddress);
    await expect(page.getByRole('region', { name: 'Replay' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Replay' }).locator('ol.players > li').first()).toBeVisible();
    expect(endpoint.requests.length).toBe(sent);
  } finally {
    await endpoint.close();
  }
});

test("the README's example: the setup warns before Blame (a tool call with no stub, a run that already meets the outcome) and keeps its fields when reopened", async ({ page }) => {
  const example = (name: string) => readFileSync(new URL(`../docs/examples/replay/${name}`, import.meta.url), 'utf8');
  await page.goto('./');
  await dropFiles(page, [{ name: 'multiply.langfuse.json', content: example('multiply.langfuse.json'), type: 'application/json' }]);
  await page.getByRole('button', { name: 'Blame this run' }).click();
  const setup = page.getByRole('region', { name: 'Blame this run' });
  const warnings = setup.getByRole('list', { name: 'Before you blame' });
  await expect(warnings).toContainText(/Step \d+ calls python: when its call changes, its recorded result will be reused .*give a stub for python in Tool stubs/);
  // The recorded answer (48) already meets an outcome of 48: nothing to blame.
  await setup.getByLabel('The final answer contains').fill('48');
  await expect(warnings).toContainText('The recorded run already meets the outcome: there is nothing to blame, so Blame is off and no requests are sent');
  await expect(setup.getByRole('button', { name: 'Blame', exact: true })).toBeDisabled();
  await setup.getByLabel('The final answer contains').fill('42');
  await expect(warnings).not.toContainText('already meets');
  await setup.getByLabel('Tool stubs').setInputFiles({ name: 'tools.js', mimeType: 'text/javascript', buffer: Buffer.from(example('tools.js')) });
  await expect(setup).toContainText('tools.js: stubs python');
  await expect(warnings).toHaveCount(0);
  const fix = setup.getByRole('textbox', { name: /^Fix of step / }).first();
  await fix.fill('resample');

  // Cancelled and opened again, the setup is as it was left.
  await setup.getByRole('button', { name: 'Cancel' }).click();
  await expect(setup).toHaveCount(0);
  await page.getByRole('button', { name: 'Blame this run' }).click();
  await expect(setup.getByLabel('The final answer contains')).toHaveValue('42');
  await expect(setup).toContainText('tools.js: stubs python');
  await expect(fix).toHaveValue('resample');
  await expect(warnings).toHaveCount(0);
});

test('a recorded run that already meets the outcome: Blame is off and sends no requests, as the warning says', async ({ page }) => {
  const endpoint = await startFakeEndpoint({ models: ['scripted'], answer: scripted, port: ENDPOINT_PORT });
  try {
    const example = (name: string) => readFileSync(new URL(`../docs/examples/replay/${name}`, import.meta.url), 'utf8');
    await page.goto('./');
    await dropFiles(page, [{ name: 'multiply.langfuse.json', content: example('multiply.langfuse.json'), type: 'application/json' }]);
    await page.getByRole('button', { name: 'Blame this run' }).click();
    const setup = page.getByRole('region', { name: 'Blame this run' });
    await setup.getByLabel('The final answer contains').fill('48');
    await expect(setup.getByRole('list', { name: 'Before you blame' })).toContainText('already meets the outcome');
    await page.getByLabel('Base URL').fill(endpoint.url);
    await page.getByLabel('Base URL').dispatchEvent('change');
    const blame = setup.getByRole('button', { name: 'Blame', exact: true });
    await expect(blame).toBeDisabled();
    await blame.click({ force: true });
    await expect(setup).toBeVisible();
    await expect(setup.getByTestId('replay-cache-count')).toBeVisible();
    expect(endpoint.requests).toHaveLength(0);
    // With the outcome the run fails, Blame is on again.
    await setup.getByLabel('The final answer contains').fill('42');
    await expect(blame).toBeEnabled();
  } finally {
    await endpoint.close();
  }
});
