import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, ApiData } from '@/types/api'
import { NO_SESSION } from './noSession'

const PATH = '/api/v1/auth/verifySignupOTP'

export function verifySignupOtp(body: ApiBody<typeof PATH, 'post'>): Promise<ApiData<typeof PATH, 'post'>> {
  return api.post(PATH, body, NO_SESSION)
}

export function useVerifySignupOtp() {
  return useMutation({ mutationFn: verifySignupOtp })
}
