import { expect, goHome, sessionRow, test, waitForStored } from './fixtures.ts';
import { demoFile, dropFiles, waitForDone } from './workbench-helpers.ts';

test('two tabs: each list follows the other tab’s rename and delete without a reload', async ({ context }) => {
  const tabA = await context.newPage();
  await tabA.goto('./');
  await dropFiles(tabA, [demoFile('refund-policy.trace.json')]);
  await waitForDone(tabA);
  const stored = await waitForStored(tabA, (s) => s.status === 'done' && s.casesAnalysed === s.caseCount);

  const tabB = await context.newPage();
  await tabB.goto('./');
  await expect(sessionRow(tabB, stored.id).getByTestId('session-open')).toHaveText(stored.name);

  await goHome(tabA);
  await sessionRow(tabA, stored.id).getByTestId('session-rename').click();
  await sessionRow(tabA, stored.id).getByTestId('session-rename-input').fill('Renamed in tab A');
  await sessionRow(tabA, stored.id).getByTestId('session-rename-input').press('Enter');
  // Tab B hears of it over the BroadcastChannel.
  await expect(sessionRow(tabB, stored.id).getByTestId('session-open')).toHaveText('Renamed in tab A');

  await sessionRow(tabB, stored.id).getByTestId('session-delete').click();
  await sessionRow(tabB, stored.id).getByTestId('session-delete-confirm').click();
  await expect(sessionRow(tabA, stored.id)).toHaveCount(0);
});
