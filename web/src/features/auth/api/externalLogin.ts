import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { GOOGLE_USERINFO_URL } from '@/config'
import { getExternalJson } from '@/api/external'
import type { ApiBody, AuthResult } from '@/types/api'

/** Sent without a session (api/client NO_SESSION_PATHS); the refresh cookie comes back with the answer. */
const NO_SESSION = { credentials: 'include' } as const satisfies RequestInit

export type ExternalLoginBody = ApiBody<'/api/v1/auth/externalLogin', 'post'>

interface GoogleUserInfo {
  email?: string
  name?: string
}

/** Google sign-in: the user info behind the access token, then our login with it. */
export async function externalLogin(
  { accessToken, ...rest }: Omit<ExternalLoginBody, 'email' | 'name'>,
): Promise<AuthResult> {
  const info = await getExternalJson<GoogleUserInfo>(GOOGLE_USERINFO_URL, accessToken)
  const body = { ...rest, accessToken, email: info.email ?? '', name: info.name ?? '' }
  return unwrap(client.POST('/api/v1/auth/externalLogin', { body, ...NO_SESSION }))
}

export function useExternalLogin() {
  return useMutation({ mutationFn: externalLogin })
}
