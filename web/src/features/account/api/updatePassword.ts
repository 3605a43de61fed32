import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/api/v1/user/updatePassword'

export function updatePassword(body: ApiBody<Path, 'patch'>): Promise<ApiData<Path, 'patch'>> {
  return unwrap(client.PATCH('/api/v1/user/updatePassword', { body }))
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: updatePassword })
}
