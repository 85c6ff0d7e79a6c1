import { defineConfig } from '@playwright/test';

/**
 * Browser tests run against the production build (`vite build` + `vite preview`), so they also
 * cover the relative base, the CSP meta tag and the workers as shipped. Debian's Chromium is used
 * because browsers cannot be downloaded here (e2e/ensure-chromium.sh installs it).
 */
const PORT = Number(process.env.E2E_PORT ?? 4173);
/** Build folder; another one (E2E_OUT_DIR) lets a run test its own build beside others'. */
const OUT_DIR = process.env.E2E_OUT_DIR ?? 'dist';

export default defineConfig({
  testDir: 'e2e',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  // The machine is small and shared; the tests measure responsiveness, so they run one at a time.
  workers: 1,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `npm run build -- --outDir ${OUT_DIR} --emptyOutDir && npx vite preview --outDir ${OUT_DIR} --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
  },
});
