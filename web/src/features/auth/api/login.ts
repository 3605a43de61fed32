import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, AuthResult } from '@/types/api'
import { NO_SESSION } from './noSession'

export type LoginBody = ApiBody<'/api/v1/auth/login', 'post'>

export function login(body: LoginBody): Promise<AuthResult> {
  return api.post<AuthResult>('/api/v1/auth/login', body, NO_SESSION)
}

export function useLogin() {
  return useMutation({ mutationFn: login })
}
