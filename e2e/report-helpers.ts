import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';

/** Debian's Chromium and the flags every helper uses (browsers cannot be downloaded here). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Writes a report where a user would save it and returns its file:// URL. */
export function saveReport(html: string, fileName: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'agentblame-report-')), fileName);
  writeFileSync(path, html, 'utf8');
  return pathToFileURL(path).href;
}

export interface OfflinePage {
  context: BrowserContext;
  page: Page;
  /** Every request other than the report itself (must stay empty). */
  requests: string[];
  /** Console errors and warnings (CSP violations land here), page errors and dialogs. */
  problems: string[];
}

/**
 * Opens a saved report with the network cut: every routed request except the file itself is
 * aborted and recorded, and so is any request the route does not see (file:// loads bypass routes).
 */
export async function openOffline(browser: Browser, url: string, options: { javaScriptEnabled: boolean; colorScheme?: 'light' | 'dark' }): Promise<OfflinePage> {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled, colorScheme: options.colorScheme ?? 'light' });
  const requests: string[] = [];
  const problems: string[] = [];
  await context.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    requests.push(route.request().url());
    return route.abort();
  });
  context.on('request', (request) => {
    if (request.url() !== url && !requests.includes(request.url())) requests.push(request.url());
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(url);
  return { context, page, requests, problems };
}
