import { pluralize } from '@/lib/format'
import type { GenerationImage } from '@/types/api'

/** The user's move and scale of the subject over the engine's own placement (the API's
 *  Placement): x, y as fractions of the image's width and height, scale around the subject's
 *  ground point (its bottom centre). */
export interface Placement {
  x: number
  y: number
  scale: number
}

/** The API's bounds (core/engine.py). */
export const OFFSET_LIMIT = 0.5
export const SCALE_MIN = 0.3
export const SCALE_MAX = 2
export const NO_PLACEMENT: Placement = { x: 0, y: 0, scale: 1 }

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value))
}

/** Rounded to what the controls show (2 decimals), and within the API's bounds. */
export function normalise(p: Placement): Placement {
  const round = (v: number) => Math.round(v * 100) / 100 || 0
  return {
    x: round(clamp(p.x, -OFFSET_LIMIT, OFFSET_LIMIT)),
    y: round(clamp(p.y, -OFFSET_LIMIT, OFFSET_LIMIT)),
    scale: round(clamp(p.scale, SCALE_MIN, SCALE_MAX)),
  }
}

/** The placement after dragging by (dx, dy) pixels over a preview of width × height. */
export function dragged(start: Placement, dx: number, dy: number, width: number, height: number): Placement {
  if (width <= 0 || height <= 0) return start
  return normalise({ ...start, x: start.x + dx / width, y: start.y + dy / height })
}

/** The CSS transform of the preview's subject layer (with transform-origin 50% 100%, the
 *  ground point): the same order as the engine, scaled around it, then moved. */
export function previewTransform(p: Placement): string {
  return `translate(${(p.x * 100).toFixed(2)}%, ${(p.y * 100).toFixed(2)}%) scale(${p.scale.toFixed(2)})`
}

export function isAdjusted(p: Placement): boolean {
  return p.x !== 0 || p.y !== 0 || p.scale !== 1
}

/** One image of a generation with its re-renders: the original and its versions, in order. */
export interface ImageVersions {
  original: GenerationImage
  /** The original's number among the generation's images (1-based). */
  number: number
  versions: GenerationImage[]
}

/** Groups a generation's images: each original with the re-renders made from it (images with a
 *  `sourceTaskId`), in the order the server lists them. */
export function groupVersions(images: GenerationImage[]): ImageVersions[] {
  const groups: ImageVersions[] = []
  const byId = new Map<string, ImageVersions>()
  for (const image of images) {
    if (image.sourceTaskId) continue
    const group = { original: image, number: groups.length + 1, versions: [] }
    groups.push(group)
    byId.set(image.taskId, group)
  }
  for (const image of images) {
    if (image.sourceTaskId) byId.get(image.sourceTaskId)?.versions.push(image)
  }
  return groups
}

/**
 * The output page's line about its images, counting every tile it shows: "2 of 2 images
 * ready, 1 failed, 2 new versions, 1 re-rendering, 1 edited". Before re-renders were
 * counted, a page with 3 tiles said "1 of 1 image ready".
 */
export function resultsSummary(groups: ImageVersions[]): string {
  const originals = groups.map((g) => g.original)
  const ready = originals.filter((t) => t.status === 'completed' && t.outputs.length > 0).length
  const failed = originals.filter((t) => t.status === 'failed').length
  const versions = groups.flatMap((g) => g.versions)
  const versionsReady = versions.filter((t) => t.status === 'completed' && t.outputs.length > 0).length
  const rerendering = versions.filter((t) => t.status !== 'completed' && t.status !== 'failed').length
  const edited = originals.filter((t) => t.status === 'completed' && t.edited).length
  const parts = [`${ready} of ${pluralize(originals.length, 'image')} ready`]
  if (failed) parts.push(`${failed} failed`)
  if (versionsReady) parts.push(pluralize(versionsReady, 'new version'))
  if (rerendering) parts.push(`${rerendering} re-rendering`)
  if (edited) parts.push(`${edited} edited`)
  return parts.join(', ')
}

/** A background the subject can be moved over: any but none (a model swap kept on its own
 *  photo) and transparent (the cut-out keeps the photo's framing). */
export function canAdjust(backgroundId: string | null | undefined): boolean {
  return Boolean(backgroundId) && backgroundId !== 'transparent'
}
