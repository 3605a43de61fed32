import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, AuthResult } from '@/types/api'

/** Sent without a session (api/client NO_SESSION_PATHS); the refresh cookie comes back with the answer. */
const NO_SESSION = { credentials: 'include' } as const satisfies RequestInit

export type LoginBody = ApiBody<'/api/v1/auth/login', 'post'>

export function login(body: LoginBody): Promise<AuthResult> {
  return unwrap(client.POST('/api/v1/auth/login', { body, ...NO_SESSION }))
}

export function useLogin() {
  return useMutation({ mutationFn: login })
}
