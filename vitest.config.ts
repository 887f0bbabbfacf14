import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    globalSetup: ['tests/helpers/global-setup.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/{server,contract,reference-api}/**/*.test.ts'],
          // These files build the BFF and the reference API and mock no module: sharing one module
          // graph per worker instead of importing the whole server again for each file halves the
          // suite's time. Each test still builds its own app, stores and data directory.
          isolate: false,
        },
      },
      {
        extends: true,
        // Client tests mock modules (vi.mock) and switch to jsdom: each file keeps its own graph.
        test: { name: 'client', include: ['tests/client/**/*.test.{ts,tsx}'] },
      },
    ],
  },
})
