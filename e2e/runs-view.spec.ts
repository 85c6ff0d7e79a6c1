/**
 * The run view: every sample trace opens as a run; a run shows its tree,
 * waterfall and a step's chat; a folder's worth of Who&When logs opens as a list of runs with
 * the baselines scored against the labels. Samples are read from ../shared/samples (never copied).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { dropFiles } from './workbench-helpers.ts';

const SAMPLES = join(process.env.AGENTBLAME_SHARED ?? join(import.meta.dirname, '../../shared'), 'samples');

function walk(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : /\.(json|jsonl)$/.test(n) ? [join(dir, n)] : []));
}

function sampleFile(path: string, name = path.split('/').pop()!) {
  return { name, content: readFileSync(path, 'utf8'), type: 'application/json' };
}

test.skip(!existsSync(SAMPLES), 'the shared samples are not beside this checkout');

test('the Tempo export opens as a run: tree, waterfall, a step as chat with its parent chain', async ({ page }) => {
  await page.goto('./');
  await dropFiles(page, [sampleFile(join(SAMPLES, 'otel-genai/agentevals_kagent_tempo_export_with_batches.json'))]);
  const run = page.getByRole('region', { name: /^Run / });
  await expect(run).toContainText('86 steps');
  const steps = page.getByRole('listbox', { name: 'Steps' });
  // Only the rows in view are rendered.
  expect(await steps.getByRole('option').count()).toBeLessThan(86);
  // Find brings a step that is not rendered yet into view and selects it.
  await run.getByRole('searchbox', { name: 'Find a step' }).fill('openai.chat');
  await run.getByRole('button', { name: 'Next match' }).click();
  await expect(steps.getByRole('option', { selected: true })).toContainText('openai.chat');
  const detail = page.getByRole('article', { name: 'Step openai.chat' });
  // The provider's call (the innermost) carries the tokens; ADK's wrappers say theirs are counted there.
  await expect(detail.getByRole('definition').filter({ hasText: / in, \d+ out$/ }).first()).toBeVisible();
  await expect(detail.getByRole('navigation', { name: 'Parent chain' })).toContainText('call_llm');
  await expect(detail.locator('.chat').first()).toContainText('user');
  await detail.getByText('Raw attributes').click();
  await expect(detail.locator('pre.raw')).toContainText('gen_ai.');
});

test('every sample file opens in the page as a run', async ({ page }) => {
  await page.goto('./');
  for (const file of walk(SAMPLES).filter((f) => !f.includes('/whowhen/'))) {
    await dropFiles(page, [sampleFile(file)]);
    await expect(page.getByRole('button', { name: 'Close runs' }), file).toBeVisible();
    await expect(page.getByRole('region', { name: /^Run |^Runs$/ }).first(), file).toBeVisible();
    await page.getByRole('button', { name: 'Close runs' }).click();
  }
});

test('184 Who&When logs dropped at once open as a list of runs, scored against their labels', async ({ page }) => {
  await page.goto('./');
  const files = ['algorithm', 'hand'].flatMap((sub) => walk(join(SAMPLES, 'whowhen', sub)).map((f) => sampleFile(f, `${sub}-${f.split('/').pop()}`)));
  await dropFiles(page, files);
  const list = page.getByRole('region', { name: 'Runs' });
  await expect(list).toContainText('184 runs', { timeout: 60_000 });
  const scores = page.getByRole('region', { name: 'Scores against the labels' });
  await expect(scores).toContainText('184 labelled runs');
  await expect(scores.getByRole('row', { name: /last to touch the output/ })).toContainText('11.4%');
  await list.getByRole('searchbox', { name: 'Filter runs' }).fill('hand-30');
  await list.getByRole('button', { name: 'hand-30' }).click();
  const run = page.getByRole('region', { name: 'Run Who&When Hand-Crafted hand-30' });
  await expect(run).toContainText('label:');
  await expect(run).toContainText(/label: \w+ at step \d+/);
  // Up and down arrows move through the steps.
  await run.getByRole('listbox', { name: 'Steps' }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(run.getByRole('option', { selected: true })).toContainText('1');
  // The 184 files are kept in this browser: a reload shows the same run and step, and the same list.
  const step = await run.getByRole('option', { selected: true }).textContent();
  const address = page.url();
  await page.reload();
  await expect(run.getByRole('option', { selected: true })).toHaveText(step ?? '', { timeout: 60_000 });
  expect(page.url()).toBe(address);
  await page.getByRole('button', { name: /^All runs/ }).click();
  await expect(list).toContainText('184 runs');
  await expect(scores).toContainText('184 labelled runs');
  await dropFiles(page, [{ name: 'predictions.json', content: JSON.stringify({ 'hand-30': { agent: 'WebSurfer', step: 0 } }), type: 'application/json' }]);
  await expect(scores.getByRole('row', { name: /predictions \(predictions.json\)/ })).toBeVisible();
});

test('Open folder reads a whole folder of Who&When logs as runs named by their path in it', async ({ page }) => {
  await page.goto('./');
  await page.getByLabel('Open folder').setInputFiles(join(SAMPLES, 'whowhen', 'hand'));
  const list = page.getByRole('region', { name: 'Runs' });
  await expect(list).toContainText(`${walk(join(SAMPLES, 'whowhen', 'hand')).length} runs`, { timeout: 60_000 });
  await expect(page.getByRole('region', { name: 'Scores against the labels' })).toContainText('labelled runs');
  await list.getByRole('searchbox', { name: 'Filter runs' }).fill('30');
  await expect(list.getByRole('button', { name: /hand\/30/ })).toBeVisible();
});
