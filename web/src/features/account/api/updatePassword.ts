import { useMutation } from '@tanstack/react-query'
import * as userApi from '@/api/user'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/user/updatePassword'

export function updatePassword(body: ApiBody<Path, 'patch'>): Promise<ApiData<Path, 'patch'>> {
  return userApi.updatePassword(body)
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword })
}
