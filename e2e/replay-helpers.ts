import type { Locator, Page } from '@playwright/test';
import { tripExport } from '../src/app/replay/testing/trip-run.ts';
import { dropFiles } from './workbench-helpers.ts';

/** Typed into a Model panel field and committed (its `change`), as a user leaving the field does. */
export async function setField(page: Page, label: string, value: string): Promise<void> {
  await page.getByLabel(label).fill(value);
  await page.getByLabel(label).dispatchEvent('change');
}

/**
 * The trip run (src/app/replay/testing/trip-run.ts) dropped, its *Blame this run* setup opened with
 * the outcome given and, when `endpoint` is, the Model panel pointed at it (model id `scripted`).
 */
export async function openTripSetup(page: Page, options: { outcome: string; endpoint?: string; fileName?: string }): Promise<Locator> {
  await page.goto('./');
  await dropFiles(page, [{ name: options.fileName ?? 'trip.langfuse.json', content: tripExport(), type: 'application/json' }]);
  await page.getByRole('button', { name: 'Blame this run' }).click();
  const setup = page.getByRole('region', { name: 'Blame this run' });
  await setup.getByLabel('The final answer contains').fill(options.outcome);
  if (options.endpoint !== undefined) {
    await setField(page, 'Base URL', options.endpoint);
    await setField(page, 'Model id', 'scripted');
  }
  return setup;
}
