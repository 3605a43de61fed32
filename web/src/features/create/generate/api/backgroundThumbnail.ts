import { useQuery } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import { SEED_PAGE_SIZE } from '@/config'

/** The chosen background's thumbnail for the placement preview, from the catalog's first page
 *  (where the flow offers them); null when it is white or not among them. */
export function useBackgroundThumbnail(backgroundId: string): string | null {
  const seeds = useQuery({
    queryKey: ['catalogItems', 'background', 'first-page'],
    queryFn: ({ signal }) => {
      const query = { type: 'background', pagenum: 1, pagesize: SEED_PAGE_SIZE } as const
      return unwrap(client.GET('/imageedit/seed', { params: { query }, signal }))
    },
    enabled: backgroundId !== 'white',
    staleTime: 5 * 60_000,
  })
  const found = seeds.data?.items.find((item) => item._id === backgroundId)
  return found ? found.thumbnailUrl || found.url : null
}
