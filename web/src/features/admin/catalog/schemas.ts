import { z } from 'zod'
import { ACCEPTED_IMAGE_TYPES } from '@/config'
import type { BodyType, Gender, SkinTone } from './attributes'

export const MSG_FILE_REQUIRED = 'Choose a photo to upload.'
export const MSG_FILE_TYPE = 'Use a JPEG, PNG or WebP photo.'
export const MSG_ITEM_NAME = 'Give it a name.'
export const NAME_MAX = 128
export const CATEGORY_MAX = 64
export const DESCRIPTION_MAX = 280
export const MSG_DESCRIPTION_LONG = `Keep the description to ${DESCRIPTION_MAX} characters or fewer.`
export const MSG_CHOOSE_LISTED = 'Choose one of the listed values, or “Not set”.'

const nameField = z
  .string()
  .trim()
  .min(1, MSG_ITEM_NAME)
  .max(NAME_MAX, `At most ${NAME_MAX} characters.`)
const categoryField = z.string().trim().max(CATEGORY_MAX, `At most ${CATEGORY_MAX} characters.`)
const descriptionField = z.string().trim().max(DESCRIPTION_MAX, MSG_DESCRIPTION_LONG)

/** One of the listed values, or '' ("Not set"). */
function choiceField<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(['', ...values] as ['', ...T], { error: MSG_CHOOSE_LISTED })
}

/** What describes an item: a short description, and for a digital model its gender, skin tone
 *  and body type (each optional; backgrounds leave them empty). */
const describing = {
  description: descriptionField,
  gender: choiceField(['female', 'male'] satisfies [Gender, ...Gender[]]),
  skinTone: choiceField(['fair', 'light', 'medium', 'tan', 'deep'] satisfies [SkinTone, ...SkinTone[]]),
  bodyType: choiceField(['slim', 'athletic', 'curvy', 'plus'] satisfies [BodyType, ...BodyType[]]),
}

/** The upload form: a photo (required, an accepted image type), a name (required), a category,
 *  a description and the model's attributes. The server checks the rest (size, 768 px, one
 *  person) and its reason is shown as it is. */
export const uploadSchema = z.object({
  file: z.custom<File | null>((value) => value === null || value instanceof File).superRefine((file, ctx) => {
    if (!(file instanceof File)) ctx.addIssue({ code: 'custom', message: MSG_FILE_REQUIRED })
    else if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type))
      ctx.addIssue({ code: 'custom', message: MSG_FILE_TYPE })
  }),
  name: nameField,
  category: categoryField,
  ...describing,
})
export type UploadValues = z.input<typeof uploadSchema>

/** Editing an item's name, category, description and (models) attributes. */
export const editSchema = z.object({ name: nameField, category: categoryField, ...describing })
export type EditValues = z.input<typeof editSchema>

/** The empty describing fields of a form. */
export const NO_ATTRIBUTES = { description: '', gender: '', skinTone: '', bodyType: '' } as const
