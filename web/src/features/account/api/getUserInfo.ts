import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { UserInfo } from '@/types/api'

export function getUserInfo(signal?: AbortSignal): Promise<UserInfo> {
  return api.get<UserInfo>('/api/v1/user/userInfo', undefined, signal)
}

export const userInfoQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: ['userInfo', userEmail],
    queryFn: ({ signal }) => getUserInfo(signal),
  })

export function useUserInfo(userEmail: string | null) {
  return useQuery({ ...userInfoQueryOptions(userEmail ?? ''), enabled: Boolean(userEmail) })
}
