/**
 * Who the signed-in user is, as the server says (GET /api/v1/user/userInfo): their details for
 * the settings page, and the role that tells operators ("admin") apart for every page's menu
 * (hooks/useIsAdmin). Both read the one ['userInfo', email] cache entry.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import type { UserInfo } from '@/types/api'
import { client, unwrap } from './client'

export function getUserInfo(signal?: AbortSignal): Promise<UserInfo> {
  return unwrap(client.GET('/api/v1/user/userInfo', { signal }))
}

export const userInfoQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: ['userInfo', userEmail],
    queryFn: ({ signal }) => getUserInfo(signal),
  })

/** The settings page's details (nothing is asked without a signed-in user). */
export function useUserInfo(userEmail: string | null) {
  return useQuery({ ...userInfoQueryOptions(userEmail ?? ''), enabled: Boolean(userEmail) })
}

/** The role, read on every page: a minute old is fresh enough to choose what the menu shows. */
export const viewerQueryOptions = (userEmail: string) =>
  queryOptions({ ...userInfoQueryOptions(userEmail), staleTime: 60_000 })
