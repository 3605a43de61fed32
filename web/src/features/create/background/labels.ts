import { BUILTIN_BACKGROUND_LABELS } from '@/lib/backgrounds'

/** The two built-in backgrounds get fixed, descriptive names. */
export const BUILTIN_LABELS = BUILTIN_BACKGROUND_LABELS

export function backgroundLabel(bg: { _id: string; name: string; builtin: boolean }): string {
  return (bg.builtin && BUILTIN_LABELS[bg._id]) || bg.name
}

/** The background categories the catalog uses, as the chips name them. */
export const CATEGORY_LABELS: Record<string, string> = {
  studio: 'Studio',
  street: 'Street',
  nature: 'Nature',
  interior: 'Interior',
}

/** "studio" → "Studio"; a category without a fixed label is capitalized ("rooftop bar" → "Rooftop bar"). */
export function categoryLabel(category: string): string {
  const key = category.trim().toLowerCase()
  return CATEGORY_LABELS[key] ?? (key ? key.charAt(0).toUpperCase() + key.slice(1) : '')
}

/** The categories of the photo (not built-in) backgrounds, known ones first in their usual order. */
export function backgroundCategories(items: ReadonlyArray<{ category: string; builtin: boolean }>): string[] {
  const present = new Set(items.filter((b) => !b.builtin && b.category.trim()).map((b) => b.category.trim().toLowerCase()))
  const known = Object.keys(CATEGORY_LABELS).filter((c) => present.has(c))
  const others = [...present].filter((c) => !(c in CATEGORY_LABELS)).sort()
  return [...known, ...others]
}

/** What the grid shows for a category ('' = all): built-ins always, first; photos of the category. */
export function filterBackgrounds<T extends { category: string; builtin: boolean }>(items: readonly T[], category: string): T[] {
  if (!category) return [...items]
  return items.filter((b) => b.builtin || b.category.trim().toLowerCase() === category)
}
