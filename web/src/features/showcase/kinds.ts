import type { GenerationKind } from '@/types/api'

/** The services the showcase can show, in switch order, with the names users know them by. */
export const SHOWCASE_KINDS: ReadonlyArray<{ value: GenerationKind; label: string }> = [
  { value: 'bodySwap', label: 'Model swap' },
  { value: 'burstreplace', label: 'Background' },
]

export const DEFAULT_KIND: GenerationKind = 'bodySwap'
export const SHOWCASE_PAGE_SIZE = 12

export function parseKind(value: string | null): GenerationKind {
  return SHOWCASE_KINDS.find((s) => s.value === value)?.value ?? DEFAULT_KIND
}

export function parsePage(value: string | null): number {
  const n = Number(value)
  return Number.isInteger(n) && n >= 1 ? n : 1
}

export function kindLabel(value: GenerationKind): string {
  return SHOWCASE_KINDS.find((s) => s.value === value)?.label ?? value
}
