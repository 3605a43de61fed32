import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ApiData, SampleImage } from '@/types/api'

const PATH = '/api/v1/sample'

export async function getSamples(signal?: AbortSignal): Promise<SampleImage[]> {
  const data = await api.get<ApiData<typeof PATH, 'get'>>(PATH, { sampleType: 'bodySwapInputFile' }, signal)
  return data.items ?? []
}

/** The sample photos; they rarely change. */
export function useSamples() {
  return useQuery({ queryKey: ['samples'], queryFn: ({ signal }) => getSamples(signal), staleTime: 10 * 60_000 })
}
