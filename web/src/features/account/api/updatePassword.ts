import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, ApiData } from '@/types/api'

const PATH = '/api/v1/user/updatePassword'

export function updatePassword(body: ApiBody<typeof PATH, 'patch'>): Promise<ApiData<typeof PATH, 'patch'>> {
  return api.patch(PATH, body)
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword })
}
