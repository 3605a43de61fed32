import { api } from '@/lib/api'
import type { Credits } from '@/types/api'

export function getGuestCredits(signal?: AbortSignal): Promise<Credits> {
  return api.get<Credits>('/imageedit/users/getCreditsForGuests', undefined, signal)
}

/** Logged-in users: GET /api/v1/user/creditsAvailable → data.creditsAvailable. */
export async function getUserCredits(signal?: AbortSignal): Promise<Credits> {
  const data = await api.get<{ creditsAvailable: Credits }>('/api/v1/user/creditsAvailable', undefined, signal)
  return data.creditsAvailable
}
