import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'

/** Sent without a session (api/client NO_SESSION_PATHS); the refresh cookie comes back with the answer. */
const NO_SESSION = { credentials: 'include' } as const satisfies RequestInit

type Path = '/api/v1/auth/generateResetPasswordOTP'

export function generateResetPasswordOtp(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return unwrap(client.POST('/api/v1/auth/generateResetPasswordOTP', { body, ...NO_SESSION }))
}

export function useGenerateResetPasswordOtp() {
  return useMutation({ mutationFn: generateResetPasswordOtp })
}
