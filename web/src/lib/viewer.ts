/**
 * Who the signed-in user is, as the server says (GET /api/v1/user/userInfo): the role tells
 * operators ("admin") apart. Shares the ['userInfo', email] cache entry with the settings page.
 */
import { queryOptions } from '@tanstack/react-query'
import type { UserInfo } from '@/types/api'
import * as userApi from '@/api/user'

export function getViewer(signal?: AbortSignal): Promise<UserInfo> {
  return userApi.getUserInfo(signal)
}

export const viewerQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: ['userInfo', userEmail],
    queryFn: ({ signal }) => getViewer(signal),
    staleTime: 60_000,
  })
