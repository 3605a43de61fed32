import { useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'

type Path = '/api/v1/models'
export type ModelFitList = ApiData<Path, 'get'>
export type ModelFit = ModelFitList['items'][number]

/** How often, and how many times, a fit not known yet (a model still being measured, a photo
 * still being analysed) is asked again: the server measures each model once, in seconds. */
export const FIT_RETRY_MS = 2000
export const FIT_RETRIES = 30

export function getModelFits(uploads: string[], signal?: AbortSignal): Promise<ModelFitList> {
  const query = { upload: uploads, pageSize: 100 }
  return unwrap(client.GET('/api/v1/models', { params: { query }, signal }))
}

/**
 * Which models the photos (upload keys) can be swapped to, by model id; asked again while any
 * model's fit is not known yet. Disabled without photos: then every model is offered.
 */
export function useModelFits(uploads: string[]) {
  const query = useQuery({
    queryKey: ['modelFits', uploads],
    queryFn: ({ signal }) => getModelFits(uploads, signal),
    enabled: uploads.length > 0,
    refetchInterval: (q) =>
      q.state.data?.items.some((m) => m.compatible === null) && q.state.dataUpdateCount < FIT_RETRIES ? FIT_RETRY_MS : false,
  })
  const byId = new Map<string, ModelFit>((query.data?.items ?? []).map((m) => [m.id, m]))
  return { ...query, byId }
}
