import { z } from 'zod'
import { MSG_CURRENT_PASSWORD, MSG_PASSWORD_MISMATCH, nameSchema, passwordSchema } from '@/lib/validation'

export const profileSchema = z.object({ name: nameSchema })
export type ProfileValues = z.infer<typeof profileSchema>

/** Current password, a new one (8 to 128 characters) and the same again. */
export const changePasswordSchema = z
  .object({
    current: z.string().min(1, MSG_CURRENT_PASSWORD),
    next: passwordSchema,
    confirm: z.string(),
  })
  .superRefine((v, ctx) => {
    if (v.next !== v.confirm) ctx.addIssue({ code: 'custom', path: ['confirm'], message: MSG_PASSWORD_MISMATCH })
  })
export type ChangePasswordValues = z.infer<typeof changePasswordSchema>
