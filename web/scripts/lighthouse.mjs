// Lighthouse's mobile preset (its default: a Moto G Power-sized screen, 4x CPU slowdown and a slow
// 4G network, simulated) against a running app, for the pages issue 39 names. Each page is run
// several times and the median of each figure is printed: on a shared 2-core machine one run
// can be 10 points off. Every run's report and a summary go to out/lighthouse/ (repo root).
//
//   node scripts/lighthouse.mjs [--base URL] [--runs N] [--out DIR] [/path ...]
//
// Env: BASE_URL (default http://127.0.0.1:8000, the address `make run` serves), CHROMIUM_PATH
// (default /usr/bin/chromium, Debian's, as the browser walks use). The app must be running
// already (`make run`, or `make lighthouse`, which starts its own on free ports).

import { execFile } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const LIGHTHOUSE = join(WEB, 'node_modules', '.bin', 'lighthouse')
const DEFAULT_PAGES = ['/', '/upload-images', '/subscription', '/showcase']
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const METRICS = {
  lcpMs: 'largest-contentful-paint',
  fcpMs: 'first-contentful-paint',
  tbtMs: 'total-blocking-time',
  cls: 'cumulative-layout-shift',
  speedIndexMs: 'speed-index',
}
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic']

function parseArgs(argv) {
  const options = {
    base: process.env.BASE_URL || 'http://127.0.0.1:8000',
    runs: 3,
    out: resolve(WEB, '..', 'out', 'lighthouse'),
    pages: [],
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--base') options.base = argv[++i]
    else if (arg === '--runs') options.runs = Number(argv[++i])
    else if (arg === '--out') options.out = resolve(argv[++i])
    else if (arg.startsWith('/')) options.pages.push(arg)
    else throw new Error(`unknown argument ${arg} (expected --base URL, --runs N, --out DIR or a /path)`)
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs takes a whole number of at least 1')
  options.base = options.base.replace(/\/$/, '')
  if (options.pages.length === 0) options.pages = DEFAULT_PAGES
  return options
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/** One Lighthouse run of one page: its four scores (0-100) and its timings. */
async function audit(url, reportPath) {
  await run(
    LIGHTHOUSE,
    [
      url,
      '--output=json',
      `--output-path=${reportPath}`,
      `--only-categories=${CATEGORIES.join(',')}`,
      `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
      '--quiet',
    ],
    {
      env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH || '/usr/bin/chromium' },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 180_000,
    },
  )
  const report = JSON.parse(await readFile(reportPath, 'utf8'))
  if (report.runtimeError) throw new Error(`${url}: ${report.runtimeError.code} ${report.runtimeError.message}`)
  const result = {}
  for (const category of CATEGORIES) result[category] = Math.round((report.categories[category]?.score ?? 0) * 100)
  for (const [name, id] of Object.entries(METRICS)) result[name] = report.audits[id]?.numericValue ?? null
  result.lcpElement = report.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? null
  return result
}

function slug(page) {
  return page === '/' ? 'home' : page.replace(/^\//, '').replace(/[^a-z0-9]+/gi, '-')
}

async function main() {
  const options = parseArgs(process.argv.slice(2))
  await mkdir(options.out, { recursive: true })
  const loadBefore = loadavg()
  const summary = { base: options.base, runs: options.runs, loadAverageBefore: loadBefore, pages: {} }
  for (const page of options.pages) {
    const runs = []
    for (let i = 1; i <= options.runs; i++) {
      // The host's load beside each run: Lighthouse scales the CPU time it observes by 4, so
      // other work on a shared machine shows up as blocking time (TBT) and a later paint.
      const load = loadavg()[0]
      runs.push({ ...(await audit(`${options.base}${page}`, join(options.out, `${slug(page)}-${i}.json`))), load })
    }
    const medians = {}
    for (const key of [...CATEGORIES, ...Object.keys(METRICS)]) medians[key] = median(runs.map((r) => r[key] ?? 0))
    summary.pages[page] = { median: medians, runs }
    console.log(
      `${page.padEnd(16)} performance ${medians.performance}  accessibility ${medians.accessibility}  ` +
        `best-practices ${medians['best-practices']}  seo ${medians.seo}  ` +
        `LCP ${(medians.lcpMs / 1000).toFixed(2)} s  FCP ${(medians.fcpMs / 1000).toFixed(2)} s  ` +
        `TBT ${Math.round(medians.tbtMs)} ms  CLS ${medians.cls.toFixed(3)}  ` +
        `(runs: ${runs.map((r) => `${r.performance} at load ${r.load.toFixed(1)}`).join(', ')})`,
    )
  }
  summary.loadAverageAfter = loadavg()
  const format = (load) => load.map((n) => n.toFixed(2)).join(' ')
  console.log(`load average before ${format(loadBefore)}, after ${format(summary.loadAverageAfter)} (${options.runs} runs a page, medians)`)
  await writeFile(join(options.out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`)
  console.log(`reports in ${options.out}`)
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
