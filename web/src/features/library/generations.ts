/** Pure helpers over the server's generations (ServiceView) for My Images. */
import type { Generation, GenerationKind, GenerationImage, GenerationStatus } from '@/types/api'

/** The spec's generation list page size (§9). */
export const LIBRARY_PAGE_SIZE = 90
/** How often the list is refetched while a generation is queued or running. */
export const LIBRARY_LIVE_MS = 2000

export const KIND_LABELS: Record<GenerationKind, string> = {
  bodySwap: 'Model swap',
  burstreplace: 'Background',
}

export const STATUS_LABELS: Record<GenerationStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
}

export const KIND_FILTERS: ReadonlyArray<{ value: GenerationKind | ''; label: string }> = [
  { value: '', label: 'All' },
  { value: 'bodySwap', label: 'Model swap' },
  { value: 'burstreplace', label: 'Background' },
]

export const STATUS_FILTERS: ReadonlyArray<{ value: GenerationStatus | ''; label: string }> = [
  { value: '', label: 'All statuses' },
  { value: 'completed', label: 'Completed' },
  { value: 'running', label: 'Running' },
  { value: 'queued', label: 'Queued' },
  { value: 'failed', label: 'Failed' },
]

export function isActive(status: GenerationStatus): boolean {
  return status === 'queued' || status === 'running'
}

/** Whether a generation, or any of its images, is still queued or running. */
export function generationActive(generation: Generation): boolean {
  return isActive(generation.status) || generation.tasks.some((image) => isActive(image.status))
}

/** Whether the list should keep refreshing itself. */
export function anyActive(generations: readonly Generation[] | undefined): boolean {
  return Boolean(generations?.some(generationActive))
}

/** One tile of the grid: an image of a generation. */
export interface LibraryTile {
  generation: Generation
  image: GenerationImage
  /** 1-based position of the image within its generation. */
  position: number
}

export function tilesOf(generations: readonly Generation[]): LibraryTile[] {
  return generations.flatMap((generation) => generation.tasks.map((image, i) => ({ generation, image, position: i + 1 })))
}

/** An image that can be downloaded (and so selected for a ZIP): finished with an output. */
export function downloadable(image: GenerationImage): boolean {
  return image.status === 'completed' && image.outputs.length > 0
}

export function pageCount(total: number, pageSize = LIBRARY_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize))
}

export function parseKind(value: string | null): GenerationKind | '' {
  return value === 'bodySwap' || value === 'burstreplace' ? value : ''
}

export function parseStatus(value: string | null): GenerationStatus | '' {
  return value === 'queued' || value === 'running' || value === 'completed' || value === 'failed' ? value : ''
}

export function parsePage(value: string | null): number {
  const n = Number(value)
  return Number.isInteger(n) && n >= 1 ? n : 1
}

export function formatWhen(iso: string): string {
  const when = new Date(iso)
  return Number.isNaN(when.getTime()) ? '' : when.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })
}
