import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';

export interface DroppedFile {
  name: string;
  content: string;
  type?: string;
}

/** A file from public/demos/ as a dropped file. */
export function demoFile(name: string): DroppedFile {
  return { name, content: readFileSync(new URL(`../public/demos/${name}`, import.meta.url), 'utf8'), type: name.endsWith('.js') ? 'text/javascript' : 'application/json' };
}

/** Drags files over the page and drops them, as a user would from a file manager. */
export async function dropFiles(page: Page, files: DroppedFile[], options: { checkOverlay?: boolean } = {}): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const file of list) transfer.items.add(new File([file.content], file.name, { type: file.type ?? '' }));
    return transfer;
  }, files);
  await page.dispatchEvent('main', 'dragenter', { dataTransfer });
  if (options.checkOverlay) await expect(page.getByText('Drop to open')).toBeVisible();
  await page.dispatchEvent('main', 'drop', { dataTransfer });
  await expect(page.getByText('Drop to open')).toBeHidden();
}

/** The batch table's mean Shapley cell for a step. */
export function meanShapley(page: Page, step: string) {
  return page.locator(`[data-testid=batch-table] tr[data-step="${step}"] [data-testid=mean-shapley]`);
}

/** Waits until the analysis has finished (the progress line says Done). */
export async function waitForDone(page: Page, timeout = 60_000): Promise<void> {
  await expect(page.getByTestId('run-progress')).toHaveAttribute('data-status', 'done', { timeout });
}

/** The batch table as text, for comparing two runs. */
export function batchTableText(page: Page): Promise<string> {
  return page.getByTestId('batch-table').innerText();
}

/**
 * A one-game `agentblame-game` file over planner and retriever, as a dropped file; `values` gives
 * v(empty), v({planner}), v({retriever}), v({planner, retriever}).
 */
export function twoPlayerGameFile(name: string, values: [number, number, number, number]): DroppedFile {
  const coalitions = [[], ['planner'], ['retriever'], ['planner', 'retriever']];
  const game = {
    format: 'agentblame-game',
    version: 1,
    games: [{ id: 'case-1', players: ['planner', 'retriever'], values: coalitions.map((fixed, i) => ({ fixed, value: values[i] })) }],
  };
  return { name, content: JSON.stringify(game) };
}
