import {
  ATTRIBUTE_GROUPS,
  type AttributeKey,
  type BodyType,
  type Gender,
  type SkinTone,
} from '@/lib/catalogLabels'

export { attributeSummary } from '@/lib/catalogLabels'
export type { AttributeKey, BodyType, Gender, SkinTone }

/** A select's options, in the labels' order. */
function options<T extends string>(labels: Record<T, string>): ReadonlyArray<{ value: T; label: string }> {
  return (Object.keys(labels) as T[]).map((value) => ({ value, label: labels[value] }))
}

/** The background categories the pickers name (Studio, Street, …), suggested first. */
export const BACKGROUND_CATEGORIES = ['studio', 'street', 'nature', 'interior'] as const

/** The describing attributes of a digital model, as operators choose them (select options). */
export const ATTRIBUTES: ReadonlyArray<{
  key: AttributeKey
  label: string
  options: ReadonlyArray<{ value: string; label: string }>
}> = ATTRIBUTE_GROUPS.map((group) => ({ key: group.key, label: group.label, options: options(group.labels) }))
