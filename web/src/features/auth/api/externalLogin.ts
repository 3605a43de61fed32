import { useMutation } from '@tanstack/react-query'
import { GOOGLE_USERINFO_URL } from '@/config'
import * as authApi from '@/api/auth'
import { getExternalJson } from '@/lib/api'
import type { ApiBody, AuthResult } from '@/types/api'

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
  return authApi.externalLogin({ ...rest, accessToken, email: info.email ?? '', name: info.name ?? '' })
}

export function useExternalLogin() {
  return useMutation({ mutationFn: externalLogin })
}
