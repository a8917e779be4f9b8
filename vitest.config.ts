import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Servers start per file; two cores on CI, so keep the pool small and the timeouts honest.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
