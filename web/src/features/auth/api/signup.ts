import { useMutation } from '@tanstack/react-query'
import * as authApi from '@/api/auth'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/auth/signup'

export function signup(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return authApi.signup(body)
}

export function useSignup() {
  return useMutation({ mutationFn: signup })
}
