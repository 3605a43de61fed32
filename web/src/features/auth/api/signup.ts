import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'

/** Sent without a session (api/client NO_SESSION_PATHS); the refresh cookie comes back with the answer. */
const NO_SESSION = { credentials: 'include' } as const satisfies RequestInit

type Path = '/api/v1/auth/signup'

export function signup(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return unwrap(client.POST('/api/v1/auth/signup', { body, ...NO_SESSION }))
}

export function useSignup() {
  return useMutation({ mutationFn: signup })
}
