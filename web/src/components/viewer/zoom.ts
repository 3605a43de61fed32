/** Pure helpers of the image viewer's zoom and pan. */

/** The zoom levels the +/− buttons and keys step through; 1 is "fit" (the whole image). */
export const ZOOM_STEPS = [1, 1.5, 2, 3, 4] as const
export const MIN_ZOOM = 1
export const MAX_ZOOM = 4
/** What a double-click or a double tap toggles to. */
export const TOGGLE_ZOOM = 2

export interface Point {
  x: number
  y: number
}

export const ORIGIN: Point = { x: 0, y: 0 }

export function clampZoom(zoom: number): number {
  if (!Number.isFinite(zoom)) return MIN_ZOOM
  const z = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom))
  // Close enough to fit is fit (the wheel zooms by factors).
  return z < MIN_ZOOM + 0.02 ? MIN_ZOOM : z
}

/** The next larger step (or the largest). */
export function zoomIn(zoom: number): number {
  return ZOOM_STEPS.find((s) => s > zoom + 0.001) ?? MAX_ZOOM
}

/** The next smaller step (or fit). */
export function zoomOut(zoom: number): number {
  return [...ZOOM_STEPS].reverse().find((s) => s < zoom - 0.001) ?? MIN_ZOOM
}

/** One wheel notch: in when scrolling up, out when down. */
export function wheelZoom(zoom: number, deltaY: number): number {
  if (deltaY === 0) return zoom
  return clampZoom(deltaY < 0 ? zoom * 1.2 : zoom / 1.2)
}

/**
 * The size of a contained image (object-fit: contain) in a box: the whole image, as large as
 * the box allows, landscape and portrait alike.
 */
export function containedSize(box: { width: number; height: number }, natural: { width: number; height: number }) {
  if (!natural.width || !natural.height || !box.width || !box.height) return { width: box.width, height: box.height }
  const scale = Math.min(box.width / natural.width, box.height / natural.height)
  return { width: natural.width * scale, height: natural.height * scale }
}

/**
 * Keeps a pan inside what the zoomed image covers: the image can be dragged until its edge
 * meets the box's edge, never further (no empty band), and not at all when it fits.
 */
export function clampPan(pan: Point, zoom: number, box: { width: number; height: number }, content: { width: number; height: number }): Point {
  const maxX = Math.max(0, (content.width * zoom - box.width) / 2)
  const maxY = Math.max(0, (content.height * zoom - box.height) / 2)
  return {
    x: Math.min(maxX, Math.max(-maxX, pan.x)),
    y: Math.min(maxY, Math.max(-maxY, pan.y)),
  }
}
