import { defineConfig } from 'vitest/config';

// Two projects (design.md): `unit` is the project's own tests, no network beyond loopback servers
// the tests start themselves; `conformance` is the suites, run against a target by `conformance run`.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['suites/**/*.suite.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
