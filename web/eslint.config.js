import fs from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import importX from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import reactRefresh from 'eslint-plugin-react-refresh'
import tseslint from 'typescript-eslint'
import { defineConfig } from 'eslint/config'

// Import boundaries, as in bulletproof-react: code flows shared → features → app.
// A feature never imports another feature or app/; shared code (components, hooks,
// lib, stores, types, config, and api/: the typed API client and the few reads several
// features share) imports neither. Something two features need moves down. lib/ holds pure
// helpers: it calls no server, so it imports nothing of api/ either (its rule is below).
const features = fs
  .readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)

const shared = [
  './src/api', './src/components', './src/hooks', './src/lib', './src/stores', './src/types', './src/config.ts',
  './src/env.ts', './src/testing',
]

const boundaries = [
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'Features do not import each other: move what both need to components/, hooks/, lib/ or stores/.',
  })),
  {
    target: './src/features',
    from: './src/app',
    message: 'Features do not import app/ (the app composes features, not the reverse).',
  },
  ...shared.map((target) => ({
    target,
    from: ['./src/features', './src/app'],
    message: 'Shared code does not import features or app/.',
  })),
  {
    target: './src/lib',
    from: './src/api',
    message: 'lib/ is for pure helpers with no server calls: a call goes in a feature\'s api/ (or src/api when several features share it).',
  },
]

export default defineConfig(
  { ignores: ['dist', 'node_modules', 'src/types/openapi.gen.ts'] },
  {
    files: ['src/**/*.{ts,tsx}', 'vite.config.ts', 'vitest.config.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
    },
    plugins: {
      'react-hooks': reactHooks,
      'react-refresh': reactRefresh,
    },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Parse .ts/.tsx dependencies too (no-cycle follows them), resolving `@/` like tsc.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.app.json' })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      'import-x/no-unresolved': 'error',
    },
  },
  {
    // One data layer: each server call is written once, in the api/ folder of the feature that
    // makes it (its fetcher, query options and hook in one file), or in src/api when several
    // features share it (see src/api/client.ts). Nothing else talks to the client.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/api/**', 'src/features/**/api/**'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          regex: '(^|/)api/client$',
          message: "Only src/api and a feature's api/ folder call the API client: add the call there and import its hook.",
        }],
      }],
    },
  },
  {
    files: ['eslint.config.js', 'scripts/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: globals.node,
    },
  },
  {
    // The browser walks (@playwright/test), type-aware: a Playwright call left without `await`
    // would let a walk pass without checking anything.
    files: ['e2e/**/*.ts', 'playwright.config.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      // Functions passed to page.waitForFunction and evaluate run in the browser.
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        project: './e2e/tsconfig.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
)
