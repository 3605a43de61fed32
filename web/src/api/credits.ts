/**
 * The credit balance, shared by the sidebar, the settings and the generate page:
 * the account's for a logged-in user, else the guest's. One query, keyed by the
 * user's email so that logging in or out fetches the right one (spec §4).
 */
import { queryOptions } from '@tanstack/react-query'
import { queryClient } from '@/lib/queryClient'
import type { Credits } from '@/types/api'
import { client, unwrap } from './client'

export const CREDITS_KEY = ['credits'] as const

function normalize(credits: Credits): Credits {
  const free = Number(credits.free) || 0
  const paid = Number(credits.paid) || 0
  const total = Number.isFinite(credits.total) ? credits.total : free + paid
  return { ...credits, free, paid, total }
}

export async function getCredits(userEmail: string | null, signal?: AbortSignal): Promise<Credits> {
  if (userEmail) {
    const data = await unwrap(client.GET('/api/v1/user/creditsAvailable', { signal }))
    return normalize(data.creditsAvailable)
  }
  return normalize(await unwrap(client.GET('/imageedit/users/getCreditsForGuests', { signal })))
}

export function creditsQueryOptions(userEmail: string | null) {
  return queryOptions({
    queryKey: [...CREDITS_KEY, userEmail ?? 'guest'],
    queryFn: async ({ signal }) => {
      try {
        return await getCredits(userEmail, signal)
      } catch (err) {
        // Spec §8: credit errors are only logged.
        console.warn('Could not load credits:', err)
        throw err
      }
    },
  })
}

/** After a generation was submitted or finished: reservations and refunds moved the balance. */
export function invalidateCredits(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: CREDITS_KEY })
}
