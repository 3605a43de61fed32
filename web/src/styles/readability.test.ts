/// <reference types="node" />
// The stylesheets are read from disk: under vitest a CSS import (?raw too) comes back empty.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..')
// Every stylesheet of the app, as text: the rules below hold for all of them.
const sheets = Object.fromEntries(
  readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.css'))
    .map((file) => [file, readFileSync(join(SRC, file), 'utf8')]),
)
const globalCss = sheets[join('styles', 'global.css')] ?? ''

/** A colour token of :root in global.css (#rrggbb). */
function token(name: string): string {
  const found = new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(globalCss)
  if (!found?.[1]) throw new Error(`no --${name} in global.css`)
  return found[1]
}

/** WCAG 2.x contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

describe('the stylesheets stay readable (issue 39)', () => {
  it('the contrast helper agrees with WCAG on known pairs', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrast('#6b6e78', '#eeedfd')).toBeCloseTo(4.4, 1) // the old muted on the credit total
  })

  it('muted text has a margin over AA (4.6:1) on white and on every tinted surface', () => {
    const muted = token('muted')
    for (const surface of ['surface', 'bg', 'surface-2', 'accent-soft', 'success-soft', 'warning-soft', 'danger-soft']) {
      expect(contrast(muted, token(surface)), `--muted on --${surface}`).toBeGreaterThanOrEqual(4.6)
    }
  })

  it('the accent, as text, reaches AA on its own soft tint (the credit total card)', () => {
    expect(contrast(token('accent'), token('accent-soft'))).toBeGreaterThanOrEqual(4.5)
  })

  it('no text is set under 12 px', () => {
    expect(Object.keys(sheets).length).toBeGreaterThan(20)
    const small: string[] = []
    for (const [file, css] of Object.entries(sheets)) {
      for (const [, size, unit] of css.matchAll(/font-size:\s*([\d.]+)(px|rem)\b/g)) {
        // rem against the root's 15 px (global.css :root).
        const px = Number(size) * (unit === 'rem' ? 15 : 1)
        if (px < 12) small.push(`${file}: ${size}${unit}`)
      }
    }
    expect(small).toEqual([])
  })

  it('checkboxes are 24 px targets at least (WCAG 2.2), unless a larger label wraps them', () => {
    for (const selector of [/:where\(input\[type='checkbox'\][^{]*\{([^}]*)\}/, /\.checkbox input \{([^}]*)\}/]) {
      const rule = selector.exec(globalCss)?.[1] ?? ''
      expect(rule).toMatch(/width: 24px/)
      expect(rule).toMatch(/height: 24px/)
    }
  })
})
