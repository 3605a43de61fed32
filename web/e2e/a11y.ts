// The accessibility checks the browser walks share: axe-core run inside the page (injected from
// web/node_modules, no CDN), and where keyboard focus is and whether a person can see it.
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'
import { fail } from './support'

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

/**
 * Parts of pages axe leaves out, each for a reason (none now: /docs/api's Redoc reference is
 * checked too since its headings are ordered and its sample colours raised, issue 39 item 6).
 */
export const AXE_EXCLUDE: string[] = []

type AxeNode = { target: unknown[]; failureSummary?: string }
type AxeViolation = { id: string; impact: string | null; help: string; nodes: AxeNode[] }

/** axe's violations on the page as it is now, one line each ("" when there are none). */
export async function axeViolations(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE })
  const violations = await page.evaluate(
    async ({ tags, exclude }) => {
      const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: unknown[] }> } }).axe
      // Only what is there: an excluded selector that matches nothing is no error.
      const present = exclude.filter((s) => document.querySelector(s)).map((s) => [s])
      const result = await axe.run({ include: [['html']], exclude: present }, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      })
      return result.violations
    },
    { tags: AXE_TAGS, exclude: AXE_EXCLUDE },
  )
  return (violations as AxeViolation[]).map((v) => {
    const nodes = v.nodes
      .slice(0, 4)
      .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` [${n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)}]` : ''}`)
    return `${where}: ${v.id} (${v.impact}) ${v.help}: ${nodes.join(' | ')}${v.nodes.length > 4 ? ` (+${v.nodes.length - 4})` : ''}`
  })
}

/** What has focus, for messages: tag, test id or id, and its text or label. */
export async function focusedName(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return '<body>'
    const id = el.getAttribute('data-testid') ?? (el.id ? `#${el.id}` : '')
    const label = el.getAttribute('aria-label') ?? el.textContent?.replace(/\s+/g, ' ').trim().slice(0, 40) ?? ''
    return `<${el.tagName.toLowerCase()}${id ? ` ${id}` : ''}> "${label}"`
  })
}

/** Fails unless the focused element shows a ring (a non-none outline or box-shadow). */
export async function expectFocusVisible(page: Page, where: string): Promise<void> {
  const ring = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return null
    const style = getComputedStyle(el)
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0
    return outline || style.boxShadow !== 'none' ? `${style.outlineStyle} ${style.outlineWidth} / ${style.boxShadow}` : ''
  })
  if (ring === null) fail(`${where}: nothing has focus`)
  if (!ring) fail(`${where}: the focused ${await focusedName(page)} shows no focus ring`)
}

/** Whether the focused element matches the CSS selector. */
export function focusedMatches(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)
}

/** Whether focus is inside the element matching the CSS selector. */
export function focusInside(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const box = document.querySelector(sel)
    return !!box && box.contains(document.activeElement)
  }, selector)
}

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element matches `selector`, checking the
 * focus ring at each stop; fails after `max` presses. Returns the stops passed on the way.
 */
export async function tabTo(page: Page, selector: string, what: string, max = 40, back = false): Promise<string[]> {
  const stops: string[] = []
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
    const name = await focusedName(page)
    stops.push(name)
    // Past the page's last control focus goes to the browser's own controls (none in headless
    // Chromium: <body>), and the next Tab starts over at the page's first; once, not twice.
    if (name === '<body>' && stops.at(-2) !== '<body>') continue
    await expectFocusVisible(page, `Tab ${i + 1} towards ${what}`)
    if (await focusedMatches(page, selector)) return stops
  }
  return fail(`${what} not reached in ${max} Tabs; focus went: ${stops.join(' → ')}`)
}
