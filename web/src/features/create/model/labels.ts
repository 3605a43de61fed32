import {
  ATTRIBUTE_GROUPS,
  attributeSummary,
  type AttributeKey,
  type BodyType,
  type Gender,
  type SkinTone,
} from '@/lib/catalogLabels'
import type { CatalogItem } from '@/types/api'

/** The attribute filters of the model picker (GET /api/v1/model `gender`, `skinTone`, `bodyType`). */
export interface ModelFilters {
  gender?: Gender
  skinTone?: SkinTone
  bodyType?: BodyType
}
export type ModelFilterKey = AttributeKey

/** The filter groups, in the order the picker shows them. */
export const FILTER_GROUPS = ATTRIBUTE_GROUPS

/** "street wear" → "Street wear" (a category as a chip or card shows it). */
export function capitalize(value: string): string {
  return value ? value.charAt(0).toUpperCase() + value.slice(1) : value
}

/** The card's second line: the model's short description; without one, what is known of it
 *  ("Female · Slim · Fair skin"), else its category. */
export function modelSummary(m: Pick<CatalogItem, 'description' | 'gender' | 'skinTone' | 'bodyType' | 'category'>): string | undefined {
  const description = m.description?.trim()
  if (description) return description
  const known = attributeSummary(m)
  if (known) return known
  return m.category ? capitalize(m.category) : undefined
}
