/**
 * The README's screenshot (docs/images/workbench.png): the workbench with the stochastic-rag demo
 * analysed, its batch view. Run against a served build:
 *   npm run build -- --outDir dist-shot && npx vite preview --outDir dist-shot --port 4180 &
 *   npx tsx scripts/readme-screenshot.ts http://127.0.0.1:4180/
 * Uses Debian's Chromium (/usr/bin/chromium), as the browser tests do.
 */
import { chromium } from '@playwright/test';
import { join } from 'node:path';

const base = process.argv[2];
if (!base) {
  process.stderr.write('usage: npx tsx scripts/readme-screenshot.ts BASE_URL\n');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  await page.goto(new URL('?trace=demos/stochastic-rag.trace.json', base).href);
  await page.getByTestId('run-progress').and(page.locator('[data-status="done"]')).waitFor({ timeout: 180_000 });
  await page.getByTestId('batch-headline').waitFor();
  const out = join(import.meta.dirname, '../docs/images/workbench.png');
  await page.screenshot({ path: out });
  process.stdout.write(`${out}\n`);
} finally {
  await browser.close();
}
