import { useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData, ApiQuery } from '@/types/api'

export type AdminGenerations = ApiData<'/api/v1/admin/generations', 'get'>
export type AdminGeneration = AdminGenerations['items'][number]
export type GenerationLookup = ApiQuery<'/api/v1/admin/generations', 'get'>

/** A generation by its service id, or a user's latest 50 by their email. */
export function findGenerations(lookup: GenerationLookup, signal?: AbortSignal): Promise<AdminGenerations> {
  return unwrap(client.GET('/api/v1/admin/generations', { params: { query: lookup }, signal }))
}

export const adminGenerationsKey = ['admin', 'generations'] as const

export function useAdminGenerations(lookup: GenerationLookup | null) {
  return useQuery({
    queryKey: [...adminGenerationsKey, lookup],
    queryFn: ({ signal }) => findGenerations(lookup ?? {}, signal),
    enabled: lookup !== null,
  })
}
