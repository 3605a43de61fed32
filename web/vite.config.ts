import { fileURLToPath, URL } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'

// Redoc (the /docs/api reference) draws its "API docs by Redocly" badge with an image from its
// CDN, unconditionally; the app loads nothing from elsewhere, so the bundle gets an empty inline
// SVG instead (the routes walk fails on the failed request otherwise).
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg'
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E"

function redocWithoutCdn(): Plugin {
  return {
    name: 'redoc-without-cdn',
    transform(code, id) {
      if (!id.includes('/node_modules/redoc/') || !code.includes(REDOC_CDN_LOGO)) return null
      return { code: code.replaceAll(REDOC_CDN_LOGO, EMPTY_SVG), map: null }
    },
  }
}

// The Python API serves both /api and /imageedit; in dev we proxy them so the
// app talks to the same origin it will have in production.
const backend = process.env.VITE_BACKEND_URL ?? 'http://127.0.0.1:8000'

export default defineConfig({
  base: '/',
  plugins: [react(), redocWithoutCdn()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/imageedit': { target: backend, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
})
