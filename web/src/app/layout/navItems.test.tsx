import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ADMIN_ITEMS, BOTTOM_ITEMS, TOP_ITEMS } from './navItems'

describe('the sidebar entries', () => {
  it('each have an icon of their own, so the collapsed sidebar tells them apart', () => {
    const items = [...TOP_ITEMS, ...BOTTOM_ITEMS, ...ADMIN_ITEMS]
    const drawings = items.map((item) => renderToStaticMarkup(<>{item.icon}</>))
    const byDrawing = new Map<string, string[]>()
    drawings.forEach((svg, i) => byDrawing.set(svg, [...(byDrawing.get(svg) ?? []), items[i]!.label]))
    const shared = [...byDrawing.values()].filter((labels) => labels.length > 1)
    expect(shared).toEqual([])
    expect(drawings.every((svg) => svg.startsWith('<svg'))).toBe(true)
  })
})
