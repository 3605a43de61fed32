import { api } from '@/lib/api'
import type { Credits } from '@/types/api'

export function getGuestCredits(signal?: AbortSignal): Promise<Credits> {
  return api.get<Credits>('/imageedit/users/getCreditsForGuests', undefined, signal)
}
