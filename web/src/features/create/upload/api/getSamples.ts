import { useQuery } from '@tanstack/react-query'
import * as uploadsApi from '@/api/uploads'
import type { SampleImage } from '@/types/api'

export async function getSamples(signal?: AbortSignal): Promise<SampleImage[]> {
  const data = await uploadsApi.getSamples({ sampleType: 'bodySwapInputFile' }, signal)
  return data.items ?? []
}

/** The sample photos; they rarely change. */
export function useSamples() {
  return useQuery({ queryKey: ['samples'], queryFn: ({ signal }) => getSamples(signal), staleTime: 10 * 60_000 })
}
