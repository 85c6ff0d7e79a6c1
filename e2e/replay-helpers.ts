import type { Locator, Page } from '@playwright/test';
import { tripExport } from '../src/app/replay/testing/trip-run.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

/** Typed into a Model panel field and committed (its `change`), as a user leaving the field does. */
export async function setField(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label).fill(value);
  await page.getByLabel(label).dispatchEvent('change');
}

/** Points the Model panel at a loopback endpoint serving the model `scripted`. */
export async function setModel(page: Page, url: string): Promise<void> {
  await setField(page, 'Base URL', url);
  await setField(page, 'Model id', 'scripted');
}

/**
 * The museum run (src/app/replay/testing/trip-run.ts) dropped, its *Blame this run* setup opened
 * with the outcome given and, when `endpoint` is, the Model panel pointed at it (model id `scripted`).
 */
export async function openTripSetup(page: Page, options: { outcome: string; endpoint?: string; fileName?: string }): Promise<Locator> {
  await page.goto('./');
  await dropFiles(page, [{ name: options.fileName ?? 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
  await page.getByRole('button', { name: 'Blame this run' }).click();
  const setup = page.getByRole('region', { name: 'Blame this run' });
  await setup.getByLabel('The final answer contains').fill(options.outcome);
  if (options.endpoint !== undefined) await setModel(page, options.endpoint);
  return setup;
}

/** Drops the museum run, sets the outcome and the model, and blames it; resolves when the analysis is done. */
export async function blameTrip(page: Page, url: string): Promise<void> {
  const setup = await openTripSetup(page, { outcome: '/monday/i', endpoint: url });
  await setup.getByRole('button', { name: 'Blame', exact: true }).click();
  await waitForDone(page);
}
