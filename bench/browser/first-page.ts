/**
 * The first page's transfer: what a browser with an empty cache downloads to open the workbench
 * (the landing page, with its demo list) and settle, summed from Chromium's own count of bytes on
 * the wire (CDP `Network.loadingFinished` encodedDataLength), per file type. The in-page model's
 * library and wasm load only when a model file is used, so they must not appear here.
 */
import type { Browser } from '@playwright/test';

export interface FirstPageTransfer {
  /** Bytes on the wire, headers included. */
  bytes: number;
  requests: number;
  /** Bytes by file extension (js, css, html, wasm, ...). */
  byType: Record<string, number>;
  /** Files fetched that belong to the in-page model (must be none). */
  modelFiles: string[];
}

export async function firstPageTransfer(browser: Browser, base: string): Promise<FirstPageTransfer> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map<string, string>();
  const sizes = new Map<string, number>();
  cdp.on('Network.requestWillBeSent', (e: { requestId: string; request: { url: string } }) => void urls.set(e.requestId, e.request.url));
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => void sizes.set(e.requestId, e.encodedDataLength));
  try {
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: /Support triage/ }).waitFor();
    await page.waitForLoadState('networkidle');
    const byType: Record<string, number> = {};
    let bytes = 0;
    const modelFiles: string[] = [];
    for (const [id, size] of sizes) {
      const url = urls.get(id) ?? '';
      const path = new URL(url, base).pathname;
      const type = /\.([a-z0-9]+)$/.exec(path)?.[1] ?? 'html';
      byType[type] = (byType[type] ?? 0) + size;
      bytes += size;
      if (/wllama|\.wasm$|\.gguf$/.test(path)) modelFiles.push(path);
    }
    return { bytes, requests: sizes.size, byType, modelFiles };
  } finally {
    await context.close();
  }
}

export function firstPageLine(f: FirstPageTransfer): string {
  const types = Object.entries(f.byType).sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${(n / 1000).toFixed(1)} kB`).join(', ');
  return `first page: ${(f.bytes / 1000).toFixed(1)} kB in ${f.requests} requests (${types})${f.modelFiles.length ? `; in-page model files fetched: ${f.modelFiles.join(', ')}` : ''}`;
}
