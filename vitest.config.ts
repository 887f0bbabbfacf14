import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/{server,client,contract,reference-api}/**/*.test.{ts,tsx}'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
