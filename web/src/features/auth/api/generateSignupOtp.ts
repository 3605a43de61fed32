import { useMutation } from '@tanstack/react-query'
import * as authApi from '@/api/auth'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/auth/generateSignupOTP'

export function generateSignupOtp(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return authApi.generateSignupOtp(body)
}

export function useGenerateSignupOtp() {
  return useMutation({ mutationFn: generateSignupOtp })
}
