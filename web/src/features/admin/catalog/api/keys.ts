import type { ApiData } from '@/types/api'

export const CATALOG_PATH = '/api/v1/admin/catalog'

/** A digital model or a background as operators see it (published or not). */
export type AdminCatalogItem = ApiData<typeof CATALOG_PATH, 'get'>['items'][number]
export type CatalogKind = 'model' | 'background'

/** The query keys of the operators' lists; every change invalidates the kind's list. */
export const catalogKeys = {
  all: ['admin', 'catalog'] as const,
  list: (kind: CatalogKind) => ['admin', 'catalog', kind] as const,
}

/** What the pickers show changes with every operator's change (the create flow's query keys:
 *  create/model/api and create/background/api's getCatalogItems, the placement's thumbnail). */
export const PICKER_KEYS = [['models'], ['modelCategories'], ['modelFilters'], ['catalogItems']] as const
