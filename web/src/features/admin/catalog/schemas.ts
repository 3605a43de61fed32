import { z } from 'zod'
import { ACCEPTED_IMAGE_TYPES } from '@/config'

export const MSG_FILE_REQUIRED = 'Choose a photo to upload.'
export const MSG_FILE_TYPE = 'Use a JPEG, PNG or WebP photo.'
export const MSG_ITEM_NAME = 'Give it a name.'
export const NAME_MAX = 128
export const CATEGORY_MAX = 64

const nameField = z
  .string()
  .trim()
  .min(1, MSG_ITEM_NAME)
  .max(NAME_MAX, `At most ${NAME_MAX} characters.`)
const categoryField = z.string().trim().max(CATEGORY_MAX, `At most ${CATEGORY_MAX} characters.`)

/** The upload form: a photo (required, an accepted image type), a name (required), a category.
 *  The server checks the rest (size, 768 px, one person) and its reason is shown as it is. */
export const uploadSchema = z.object({
  file: z.custom<File | null>((value) => value === null || value instanceof File).superRefine((file, ctx) => {
    if (!(file instanceof File)) ctx.addIssue({ code: 'custom', message: MSG_FILE_REQUIRED })
    else if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type))
      ctx.addIssue({ code: 'custom', message: MSG_FILE_TYPE })
  }),
  name: nameField,
  category: categoryField,
})
export type UploadValues = z.input<typeof uploadSchema>

/** Editing an item's name and category. */
export const editSchema = z.object({ name: nameField, category: categoryField })
export type EditValues = z.infer<typeof editSchema>
