/**
 * How a digital model's describing attributes read, wherever they show: the model picker's
 * filters and cards, and the operators' catalog form and cards (features may not share code,
 * so it lives here).
 */
import type { CatalogItem } from '@/types/api'

export type Gender = NonNullable<CatalogItem['gender']>
export type SkinTone = NonNullable<CatalogItem['skinTone']>
export type BodyType = NonNullable<CatalogItem['bodyType']>
export type AttributeKey = 'gender' | 'skinTone' | 'bodyType'

export const GENDER_LABELS: Record<Gender, string> = { female: 'Female', male: 'Male' }
/** Lightest first, the order the filters offer them in. */
export const SKIN_TONE_LABELS: Record<SkinTone, string> = {
  fair: 'Fair',
  light: 'Light',
  medium: 'Medium',
  tan: 'Tan',
  deep: 'Deep',
}
export const BODY_TYPE_LABELS: Record<BodyType, string> = {
  slim: 'Slim',
  athletic: 'Athletic',
  curvy: 'Curvy',
  plus: 'Plus size',
}

/** The attributes in the order they are shown, each with its values' labels. */
export const ATTRIBUTE_GROUPS: ReadonlyArray<{ key: AttributeKey; label: string; labels: Record<string, string> }> = [
  { key: 'gender', label: 'Gender', labels: GENDER_LABELS },
  { key: 'skinTone', label: 'Skin tone', labels: SKIN_TONE_LABELS },
  { key: 'bodyType', label: 'Body type', labels: BODY_TYPE_LABELS },
]

/** "Female · Slim · Fair skin"; '' when nothing is set. */
export function attributeSummary(item: { gender?: Gender | null; skinTone?: SkinTone | null; bodyType?: BodyType | null }): string {
  return [
    item.gender ? GENDER_LABELS[item.gender] : null,
    item.bodyType ? BODY_TYPE_LABELS[item.bodyType] : null,
    item.skinTone ? `${SKIN_TONE_LABELS[item.skinTone]} skin` : null,
  ]
    .filter((p): p is string => Boolean(p))
    .join(' · ')
}
