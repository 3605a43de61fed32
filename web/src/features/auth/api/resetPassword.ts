import { useMutation } from '@tanstack/react-query'
import * as authApi from '@/api/auth'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/auth/resetPassword'

export function resetPassword(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return authApi.resetPassword(body)
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword })
}
