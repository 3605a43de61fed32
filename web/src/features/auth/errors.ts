import { ApiError } from '@/lib/api'
import { MSG_TRY_LATER } from '@/lib/validation'

/**
 * The text to toast for a failed auth call (spec §8): the server's message
 * when it sent one (400, 429, ...), else 'Please try again later.'.
 */
export function authErrorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.serverMessage || MSG_TRY_LATER
  return MSG_TRY_LATER
}
