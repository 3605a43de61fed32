import type { GenerationKind } from '@/types/api'

/** The services the showcase can show, in switch order, with the names users know them by. */
export const SHOWCASE_SERVICES: ReadonlyArray<{ value: GenerationKind; label: string }> = [
  { value: 'bodySwap', label: 'Model swap' },
  { value: 'burstreplace', label: 'Background' },
]

export const DEFAULT_SERVICE: GenerationKind = 'bodySwap'
export const SHOWCASE_PAGE_SIZE = 12

export function parseService(value: string | null): GenerationKind {
  return SHOWCASE_SERVICES.find((s) => s.value === value)?.value ?? DEFAULT_SERVICE
}

export function parsePage(value: string | null): number {
  const n = Number(value)
  return Number.isInteger(n) && n >= 1 ? n : 1
}

export function serviceLabel(value: GenerationKind): string {
  return SHOWCASE_SERVICES.find((s) => s.value === value)?.label ?? value
}
