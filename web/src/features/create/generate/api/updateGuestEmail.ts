import { useMutation } from '@tanstack/react-query'
import * as generationsApi from '@/api/generations'
import type { ApiBody, ApiData } from '@/types/api'

type Path = '/imageedit/service/updateguestemail'

export function updateGuestEmail(body: ApiBody<Path, 'post'>): Promise<ApiData<Path, 'post'>> {
  return generationsApi.updateGuestEmail(body)
}

export function useUpdateGuestEmail() {
  return useMutation({ mutationFn: updateGuestEmail })
}
