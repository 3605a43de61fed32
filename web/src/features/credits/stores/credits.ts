import { atom } from 'jotai'
import { errorMessage } from '@/lib/api'
import type { Credits } from '@/types/api'
import { getGuestCredits } from '../api/getCredits'

export interface CreditsState {
  credits: Credits | null
  error: string | null
}

export const creditsAtom = atom<CreditsState>({ credits: null, error: null })

/** Fetches the balance. Failures are kept quiet (spec: credit errors are only logged). */
export const refreshCreditsAtom = atom(null, async (_get, set) => {
  try {
    const credits = await getGuestCredits()
    const total = Number.isFinite(credits.total) ? credits.total : (credits.free ?? 0) + (credits.paid ?? 0)
    set(creditsAtom, { credits: { ...credits, total }, error: null })
  } catch (err) {
    console.warn('Could not load credits:', err)
    set(creditsAtom, (prev) => ({ ...prev, error: errorMessage(err) }))
  }
})
