import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Every *.test.ts under test/ (the e2e journeys are *.spec.ts, run by Playwright).
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
