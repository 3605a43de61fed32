// A new visitor's first visit of `/`, and their second: what the page moves over the wire.
// Every script and stylesheet comes from /assets/ brotli-compressed (Chromium asks for br) with
// a year's immutable caching; the page itself (index.html) is revalidated on each visit; the
// second visit takes every asset from the browser's cache. The figures (raw and transferred
// bytes per file) are printed, and written as JSON to FIRST_VISIT_REPORT when it is set.
//
//   BASE_URL=http://127.0.0.1:8000 [FIRST_VISIT_REPORT=first-visit.json] \
//     npx playwright test e2e/first-visit.spec.ts
import fs from 'node:fs'
import type { Page, Response } from '@playwright/test'
import { fail, newVisitor, test } from './support'

const IMMUTABLE = 'public, max-age=31536000, immutable'

type Fetched = {
  path: string
  kind: 'page' | 'script' | 'style' | 'other'
  status: number
  encoding: string | null
  cacheControl: string | null
  raw: number
  transferred: number
}

function kindOf(path: string, response: Response): Fetched['kind'] {
  if (response.request().resourceType() === 'document') return 'page'
  if (path.endsWith('.js')) return 'script'
  if (path.endsWith('.css')) return 'style'
  return 'other'
}

/** Every same-origin response of one visit of `/`, with its sizes (after the network settles). */
async function visit(page: Page): Promise<Fetched[]> {
  const responses: Response[] = []
  const collect = (response: Response) => responses.push(response)
  page.on('response', collect)
  await page.goto('/')
  await page.waitForLoadState('networkidle')
  page.off('response', collect)
  const origin = new URL(page.url()).origin
  const fetched: Fetched[] = []
  for (const response of responses) {
    const url = new URL(response.url())
    if (url.origin !== origin || url.pathname.startsWith('/api/') || url.pathname.startsWith('/imageedit/')) continue
    const body = response.status() === 200 ? await response.body() : Buffer.alloc(0)
    fetched.push({
      path: url.pathname,
      kind: kindOf(url.pathname, response),
      status: response.status(),
      encoding: await response.headerValue('content-encoding'),
      cacheControl: await response.headerValue('cache-control'),
      raw: body.length,
      transferred: (await response.request().sizes()).responseBodySize,
    })
  }
  return fetched
}

function total(files: Fetched[], kind: Fetched['kind']) {
  const of = files.filter((file) => file.kind === kind)
  return {
    count: of.length,
    raw: of.reduce((sum, file) => sum + file.raw, 0),
    transferred: of.reduce((sum, file) => sum + file.transferred, 0),
  }
}

test('the first visit of / moves its assets compressed, and the second takes them from the cache', async ({ browser }) => {
  const page = await newVisitor(browser)
  // Chromium tells which responses it took from its cache (Playwright does not): from memory
  // (requestServedFromCache, before the response) or from disk (fromDiskCache).
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  const servedFromCache = new Set<string>()
  const fromNetwork: string[] = []
  cdp.on('Network.requestServedFromCache', ({ requestId }) => servedFromCache.add(requestId))
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const path = new URL(response.url).pathname
    const cached = servedFromCache.has(requestId) || response.fromDiskCache || response.fromPrefetchCache
    if (path.startsWith('/assets/') && !cached) fromNetwork.push(path)
  })

  const first = await visit(page)
  const firstFromNetwork = fromNetwork.splice(0)
  const figures = { scripts: total(first, 'script'), styles: total(first, 'style'), page: total(first, 'page') }
  console.log(
    `first visit of /: ${figures.scripts.count} scripts, ${figures.scripts.raw} bytes of JavaScript ` +
      `(${figures.scripts.transferred} transferred); ${figures.styles.raw} bytes of CSS ` +
      `(${figures.styles.transferred} transferred); page ${figures.page.raw} bytes`,
  )

  await visit(page)
  const secondFromNetwork = fromNetwork.splice(0)
  console.log(`second visit of /: ${secondFromNetwork.length} assets fetched from the network`)
  if (process.env.FIRST_VISIT_REPORT) {
    fs.writeFileSync(process.env.FIRST_VISIT_REPORT, JSON.stringify({ figures, first, secondFromNetwork }, null, 2))
  }

  const problems: string[] = []
  if (figures.scripts.count === 0 || firstFromNetwork.length === 0) problems.push('the first visit loaded no asset')
  for (const file of first) {
    if (file.kind === 'page' && file.cacheControl !== 'no-cache') {
      problems.push(`${file.path}: Cache-Control ${file.cacheControl}, expected no-cache`)
    }
    if (!file.path.startsWith('/assets/')) continue
    if (file.raw >= 1024 && file.encoding !== 'br') problems.push(`${file.path}: Content-Encoding ${file.encoding}`)
    if (file.cacheControl !== IMMUTABLE) problems.push(`${file.path}: Cache-Control ${file.cacheControl}`)
  }
  if (secondFromNetwork.length) problems.push(`the second visit fetched again: ${secondFromNetwork.join(', ')}`)
  if (problems.length) fail(problems.join('\n'))
})
