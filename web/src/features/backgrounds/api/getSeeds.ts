import { api } from '@/lib/api'
import type { Paged, Seed } from '@/types/api'

export function getSeeds(
  { type, pagenum, pagesize }: { type: Seed['type']; pagenum: number; pagesize: number },
  signal?: AbortSignal,
): Promise<Paged<Seed>> {
  return api.get<Paged<Seed>>('/imageedit/seed', { type, pagenum, pagesize }, signal)
}
