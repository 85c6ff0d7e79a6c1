import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';

export default defineConfig({
  // Compiles runes in `.svelte.ts` state classes, so they are unit-tested like any module.
  plugins: [svelte()],
  test: {
    include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'bench/**/*.test.ts', 'bin/**/*.test.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
