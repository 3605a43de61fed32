import { useMutation } from '@tanstack/react-query'
import { GOOGLE_USERINFO_URL } from '@/config'
import { api, getExternalJson } from '@/lib/api'
import type { ApiBody, AuthResult } from '@/types/api'
import { NO_SESSION } from './noSession'

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
  return api.post<AuthResult>(
    '/api/v1/auth/externalLogin',
    { ...rest, accessToken, email: info.email ?? '', name: info.name ?? '' } satisfies ExternalLoginBody,
    NO_SESSION,
  )
}

export function useExternalLogin() {
  return useMutation({ mutationFn: externalLogin })
}
