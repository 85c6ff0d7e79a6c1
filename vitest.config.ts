import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'bench/**/*.test.ts', 'bin/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
