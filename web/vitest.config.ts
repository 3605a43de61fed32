import { fileURLToPath, URL } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

// Unit tests of stores, validators and forms (`npm run test:unit`), in happy-dom.
export default defineConfig({
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    // e2e/*.spec.ts are the browser walks, run by Playwright (playwright.config.ts).
    exclude: [...configDefaults.exclude, 'e2e/**'],
    restoreMocks: true,
  },
})
