import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiBody, ApiData } from '@/types/api'

const PATH = '/imageedit/service/updateguestemail'

export function updateGuestEmail(body: ApiBody<typeof PATH, 'post'>): Promise<ApiData<typeof PATH, 'post'>> {
  return api.post(PATH, body)
}

export function useUpdateGuestEmail() {
  return useMutation({ mutationFn: updateGuestEmail })
}
