import { useQuery } from '@tanstack/react-query'
import { useAtomValue } from 'jotai'
import { viewerQueryOptions } from '@/api/userInfo'
import { userAtom } from '@/stores/auth'

/**
 * Whether the signed-in user is an operator (role "admin"). `known` is false while the answer
 * is pending or when it failed (`failed`); for guests it is known at once: not an admin. The server still checks every
 * admin request (403); this only decides what to show. `enabled: false` asks nothing yet.
 */
export function useIsAdmin({ enabled = true }: { enabled?: boolean } = {}): {
  isAdmin: boolean
  known: boolean
  failed: boolean
} {
  const userEmail = useAtomValue(userAtom)?.userEmail ?? null
  const { data, isError } = useQuery({
    ...viewerQueryOptions(userEmail ?? ''),
    enabled: enabled && Boolean(userEmail),
  })
  if (!userEmail) return { isAdmin: false, known: true, failed: false }
  return { isAdmin: data?.role === 'admin', known: Boolean(data), failed: isError && !data }
}
