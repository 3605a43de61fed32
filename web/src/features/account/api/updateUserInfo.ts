import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, UserInfo } from '@/types/api'
import { userInfoQueryOptions } from './getUserInfo'

export function updateUserInfo(body: ApiBody<'/api/v1/user/userInfo', 'patch'>): Promise<UserInfo> {
  return api.patch<UserInfo>('/api/v1/user/userInfo', body)
}

export function useUpdateUserInfo() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateUserInfo,
    onSuccess: (info) => queryClient.setQueryData(userInfoQueryOptions(info.userEmail).queryKey, info),
  })
}
