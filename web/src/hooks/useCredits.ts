import { useQuery } from '@tanstack/react-query'
import { useAtomValue } from 'jotai'
import { creditsQueryOptions } from '@/api/credits'
import { userAtom } from '@/stores/auth'

/**
 * The current balance (user or guest); `data` is undefined until the first answer.
 * `fresh`: fetch again on mount even if a recent answer is cached (the settings page).
 * `enabled: false` asks nothing (a guest's balance asked for starts a guest session).
 */
export function useCredits({ fresh = false, enabled = true }: { fresh?: boolean; enabled?: boolean } = {}) {
  const userEmail = useAtomValue(userAtom)?.userEmail ?? null
  return useQuery({ ...creditsQueryOptions(userEmail), refetchOnMount: fresh ? 'always' : true, enabled })
}
