import { useMutation } from '@tanstack/react-query'
import * as authApi from '@/api/auth'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/auth/generateResetPasswordOTP'

export function generateResetPasswordOtp(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return authApi.generateResetPasswordOtp(body)
}

export function useGenerateResetPasswordOtp() {
  return useMutation({ mutationFn: generateResetPasswordOtp })
}
