import { useMutation } from '@tanstack/react-query'
import * as authApi from '@/api/auth'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/auth/verifySignupOTP'

export function verifySignupOtp(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return authApi.verifySignupOtp(body)
}

export function useVerifySignupOtp() {
  return useMutation({ mutationFn: verifySignupOtp })
}
