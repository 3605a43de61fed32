import { useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { SampleImage } from '@/types/api'

export async function getSamples(signal?: AbortSignal): Promise<SampleImage[]> {
  const query = { sampleType: 'bodySwapInputFile' } as const
  const data = await unwrap(client.GET('/api/v1/sample', { params: { query }, signal }))
  return data.items ?? []
}

/** The sample photos; they rarely change. */
export function useSamples() {
  return useQuery({ queryKey: ['samples'], queryFn: ({ signal }) => getSamples(signal), staleTime: 10 * 60_000 })
}
