import type { Page } from '@playwright/test';
import { tripExport } from '../src/app/replay/testing/trip-run.ts';
import { dropFiles, waitForDone } from './workbench-helpers.ts';

/** Drops the museum run (trip-run.ts), sets the outcome and the model, and blames it; resolves when the analysis is done. */
export async function blameTrip(page: Page, url: string): Promise<void> {
  await page.goto('./');
  await dropFiles(page, [{ name: 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
  await page.getByRole('button', { name: 'Blame this run' }).click();
  const setup = page.getByRole('region', { name: 'Blame this run' });
  await setup.getByLabel('The final answer contains').fill('/monday/i');
  await setModel(page, url);
  await setup.getByRole('button', { name: 'Blame', exact: true }).click();
  await waitForDone(page);
}

/** Points the Model panel at a loopback endpoint serving the model `scripted`. */
export async function setModel(page: Page, url: string): Promise<void> {
  await page.getByLabel('Base URL').fill(url);
  await page.getByLabel('Base URL').dispatchEvent('change');
  await page.getByLabel('Model id').fill('scripted');
  await page.getByLabel('Model id').dispatchEvent('change');
}
