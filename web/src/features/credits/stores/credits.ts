import { atom } from 'jotai'
import { errorMessage } from '@/lib/api'
import { getUserToken } from '@/lib/identity'
import type { Credits } from '@/types/api'
import { getGuestCredits, getUserCredits } from '../api/getCredits'

export interface CreditsState {
  credits: Credits | null
  error: string | null
}

export const creditsAtom = atom<CreditsState>({ credits: null, error: null })

let generation = 0

/** Forgets the balance (logout); an answer still on its way is dropped. */
export const resetCreditsAtom = atom(null, (_get, set) => {
  generation++
  set(creditsAtom, { credits: null, error: null })
})

/**
 * Fetches the balance: the account's for a logged-in user, else the guest's.
 * Failures are kept quiet (spec: credit errors are only logged).
 */
export const refreshCreditsAtom = atom(null, async (_get, set) => {
  const mine = ++generation
  try {
    const credits = getUserToken() ? await getUserCredits() : await getGuestCredits()
    if (mine !== generation) return
    const free = Number(credits.free) || 0
    const paid = Number(credits.paid) || 0
    const total = Number.isFinite(credits.total) ? credits.total : free + paid
    set(creditsAtom, { credits: { free, paid, total }, error: null })
  } catch (err) {
    console.warn('Could not load credits:', err)
    if (mine !== generation) return
    set(creditsAtom, (prev) => ({ ...prev, error: errorMessage(err) }))
  }
})
