import { useMutation } from '@tanstack/react-query'
import * as authApi from '@/api/auth'
import type { ApiBody, AuthResult } from '@/types/api'

export type LoginBody = ApiBody<'/api/v1/auth/login', 'post'>

export function login(body: LoginBody): Promise<AuthResult> {
  return authApi.login(body)
}

export function useLogin() {
  return useMutation({ mutationFn: login })
}
