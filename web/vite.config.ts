import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, URL } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants as zlib, gzip } from 'node:zlib'
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

// Hashed assets are written beside a brotli (.br) and a gzip (.gz) copy, made once here at the
// strongest settings, so neither the API (api/static_assets.py) nor nginx (gzip_static)
// compresses on each request. Text only (images and fonts are compressed already), and only
// where it pays: a file under 1 KB gains little and costs a file on disk.
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|map)$/
const MIN_COMPRESS_BYTES = 1024
const toBrotli = promisify(brotliCompress)
const toGzip = promisify(gzip)

function precompress(): Plugin {
  return {
    name: 'precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist'
      const writes = Object.keys(bundle)
        .filter((fileName) => fileName.startsWith('assets/') && COMPRESSIBLE.test(fileName))
        .map(async (fileName) => {
          // As written (the bundle's copy may predate a later plugin's rewrite).
          const path = join(dir, fileName)
          const source = await readFile(path)
          if (source.length < MIN_COMPRESS_BYTES) return
          const [br, gz] = await Promise.all([
            toBrotli(source, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            toGzip(source, { level: zlib.Z_BEST_COMPRESSION }),
          ])
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)])
        })
      await Promise.all(writes)
    },
  }
}

// The Python API serves both /api and /imageedit; in dev we proxy them so the
// app talks to the same origin it will have in production.
const backend = process.env.VITE_BACKEND_URL ?? 'http://127.0.0.1:8000'

export default defineConfig({
  base: '/',
  plugins: [react(), redocWithoutCdn(), precompress()],
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
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the first page needs in one script: left to itself, rolldown cut what the
          // entry shares with the lazy pages (React, TanStack Query, the API client) into 11
          // more files of 0.3-8.5 KB, each a request before the first paint: over HTTP/1.1's six
          // connections and a phone's round trips, Lighthouse's mobile FCP (issue 39). Same bytes.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
})
