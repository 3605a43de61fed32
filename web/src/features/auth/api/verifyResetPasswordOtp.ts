import { useMutation } from '@tanstack/react-query'
import * as authApi from '@/api/auth'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/auth/verifyResetPasswordOTP'

export function verifyResetPasswordOtp(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return authApi.verifyResetPasswordOtp(body)
}

export function useVerifyResetPasswordOtp() {
  return useMutation({ mutationFn: verifyResetPasswordOtp })
}
