import { useQueries } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ServiceJob } from '@/types/api'

export function getService(serviceId: string, signal?: AbortSignal): Promise<ServiceJob> {
  return api.get<ServiceJob>(`/imageedit/service/${encodeURIComponent(serviceId)}`, undefined, signal)
}

/**
 * The server's view of each generation (fresh output links: they are short-lived
 * presigned URLs). Refetched when the window regains focus.
 */
export function useServices(serviceIds: string[]) {
  return useQueries({
    queries: serviceIds.map((serviceId) => ({
      queryKey: ['service', serviceId],
      queryFn: ({ signal }: { signal: AbortSignal }) => getService(serviceId, signal),
    })),
  })
}
