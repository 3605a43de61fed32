import { describe, expect, it } from 'vitest'
import { clampPan, clampZoom, containedSize, wheelZoom, zoomIn, zoomOut } from './zoom'

describe('viewer zoom', () => {
  it('steps through 100, 150, 200, 300 and 400%, never past either end', () => {
    expect([1, 1.5, 2, 3].map(zoomIn)).toEqual([1.5, 2, 3, 4])
    expect(zoomIn(4)).toBe(4)
    expect(zoomIn(1.2)).toBe(1.5)
    expect([4, 3, 2, 1.5].map(zoomOut)).toEqual([3, 2, 1.5, 1])
    expect(zoomOut(1)).toBe(1)
    expect(zoomOut(1.2)).toBe(1)
  })

  it('zooms by factors with the wheel, snapping back to fit', () => {
    expect(wheelZoom(1, -100)).toBeCloseTo(1.2)
    expect(wheelZoom(1.2, 100)).toBe(1)
    expect(wheelZoom(4, -100)).toBe(4)
    expect(wheelZoom(2, 0)).toBe(2)
    expect(clampZoom(Number.NaN)).toBe(1)
  })

  it('contains landscape and portrait images whole in the box', () => {
    const box = { width: 1000, height: 600 }
    // Limited by the height here; a wide landscape by the width.
    expect(containedSize(box, { width: 1280, height: 853 }).height).toBe(600)
    expect(containedSize(box, { width: 1280, height: 853 }).width).toBeCloseTo(900.35, 1)
    expect(containedSize(box, { width: 1280, height: 498 })).toEqual({ width: 1000, height: 1000 * (498 / 1280) })
    expect(containedSize(box, { width: 768, height: 1024 })).toEqual({ width: 450, height: 600 })
    expect(containedSize(box, { width: 0, height: 0 })).toEqual(box)
  })

  it('pans only as far as the zoomed image reaches the frame', () => {
    const box = { width: 1000, height: 600 }
    const content = { width: 450, height: 600 }
    // At 2×: 900 px wide (inside the frame: no horizontal pan), 1200 px tall (300 px each way).
    expect(clampPan({ x: 500, y: -999 }, 2, box, content)).toEqual({ x: 0, y: -300 })
    expect(clampPan({ x: 10, y: 10 }, 1, box, content)).toEqual({ x: 0, y: 0 })
    expect(clampPan({ x: 20, y: 20 }, 4, box, content)).toEqual({ x: 20, y: 20 })
  })
})
