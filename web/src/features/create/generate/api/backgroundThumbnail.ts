import { useQuery } from '@tanstack/react-query'
import { SEED_PAGE_SIZE } from '@/config'
import * as catalogApi from '@/api/catalogPickers'

/** The chosen background's thumbnail for the placement preview, from the catalog's first page
 *  (where the flow offers them); null when it is white or not among them. */
export function useBackgroundThumbnail(backgroundId: string): string | null {
  const seeds = useQuery({
    queryKey: ['seeds', 'background', 'first-page'],
    queryFn: ({ signal }) => catalogApi.getSeeds({ type: 'background', pagenum: 1, pagesize: SEED_PAGE_SIZE }, signal),
    enabled: backgroundId !== 'white',
    staleTime: 5 * 60_000,
  })
  const found = seeds.data?.items.find((item) => item._id === backgroundId)
  return found ? found.thumbnailUrl || found.url : null
}
