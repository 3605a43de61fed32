import { queryOptions, useQuery } from '@tanstack/react-query'
import * as userApi from '@/api/user'
import type { UserInfo } from '@/types/api'

export function getUserInfo(signal?: AbortSignal): Promise<UserInfo> {
  return userApi.getUserInfo(signal)
}

export const userInfoQueryOptions = (userEmail: string) =>
  queryOptions({
    queryKey: ['userInfo', userEmail],
    queryFn: ({ signal }) => getUserInfo(signal),
  })

export function useUserInfo(userEmail: string | null) {
  return useQuery({ ...userInfoQueryOptions(userEmail ?? ''), enabled: Boolean(userEmail) })
}
