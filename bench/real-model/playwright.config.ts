import { fileURLToPath } from 'node:url';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import base from '../../playwright.config.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

// The page against the real model (`npm run test:real-model` runs it after the unit-level suite):
// the project's browser setup, with only bench/real-model/*.real-spec.ts; the build and its
// server run from the repository's root, as for the e2e suite.
export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.real-spec.ts',
  timeout: 600_000,
  webServer: { ...(base.webServer as NonNullable<PlaywrightTestConfig['webServer']> & object), cwd: REPO_ROOT },
});
