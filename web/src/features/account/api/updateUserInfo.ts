import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, UserInfo } from '@/types/api'
import { userInfoQueryOptions } from '@/api/userInfo'

export function updateUserInfo(body: ApiBody<'/api/v1/user/userInfo', 'patch'>): Promise<UserInfo> {
  return unwrap(client.PATCH('/api/v1/user/userInfo', { body }))
}

export function useUpdateUserInfo() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateUserInfo,
    onSuccess: (info) => queryClient.setQueryData(userInfoQueryOptions(info.userEmail).queryKey, info),
  })
}
