import { useQuery } from '@tanstack/react-query'
import { useAtomValue } from 'jotai'
import { creditsQueryOptions } from '@/lib/credits'
import { userAtom } from '@/stores/auth'

/**
 * The current balance (user or guest); `data` is undefined until the first answer.
 * `fresh`: fetch again on mount even if a recent answer is cached (the settings page).
 */
export function useCredits({ fresh = false }: { fresh?: boolean } = {}) {
  const userEmail = useAtomValue(userAtom)?.userEmail ?? null
  return useQuery({ ...creditsQueryOptions(userEmail), refetchOnMount: fresh ? 'always' : true })
}
