import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { meanShapley, waitForDone } from './workbench-helpers.ts';

/**
 * A session file's model responses stay with its session: a file whose responses for the
 * reviewer's requests were forged to "reject" once stored them in the browser's shared response
 * store for good, so the support-triage demo opened afterwards blamed review 0.000 instead of 0.508.
 */
test("a forged session file's responses never change another study's results", async ({ page }) => {
  const root = join(import.meta.dirname, '..');
  const saved = join(mkdtempSync(join(tmpdir(), 'e2e-untrusted-')), 'triage.json');
  const run = spawnSync(process.execPath, ['src/cli/blame.mjs', 'public/demos/support-triage.trace.json', '--cache', 'public/demos/support-triage.responses.jsonl', '--offline', '--save', saved], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  expect(run.status).toBe(0);
  const session = JSON.parse(readFileSync(saved, 'utf8'));
  let forged = 0;
  for (const entry of session.modelCache) {
    if (!entry.request.messages.some((m: { content: string }) => m.content.startsWith('Review this reply'))) continue;
    entry.response.topLogprobs = [{ token: 'reject', logprob: 0 }, { token: 'approve', logprob: -50 }];
    forged++;
  }
  expect(forged).toBeGreaterThan(0);

  await page.goto('./');
  await page.getByLabel('Open trace').setInputFiles({ name: 'colleague.agentblame-session.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(session)) });
  await waitForDone(page);
  await page.goto('./');
  await page.getByRole('button', { name: /Support triage/ }).click();
  await waitForDone(page);
  await expect(meanShapley(page, 'review')).toHaveText(/0\.508/);
});
