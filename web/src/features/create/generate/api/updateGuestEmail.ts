import { useMutation } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/imageedit/service/updateguestemail'

export function updateGuestEmail(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return unwrap(client.POST('/imageedit/service/updateguestemail', { body }))
}

export function useUpdateGuestEmail() {
  return useMutation({ mutationFn: updateGuestEmail })
}
