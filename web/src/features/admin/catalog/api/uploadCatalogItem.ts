import { useMutation, useQueryClient } from '@tanstack/react-query'
import * as catalogApi from '@/api/catalog'
import type { ApiData } from '@/types/api'
import { CATALOG_PATH, catalogKeys, type CatalogKind } from './keys'

type Uploaded = ApiData<typeof CATALOG_PATH, 'post'>

export interface CatalogUpload {
  kind: CatalogKind
  file: File
  name: string
  category: string
}

/** Multipart: the photo with its name and category; the server vets it (422 with the reason). */
export function uploadCatalogItem({ kind, file, name, category }: CatalogUpload): Promise<Uploaded> {
  const form = new FormData()
  form.append('kind', kind)
  form.append('name', name)
  form.append('category', category)
  form.append('file', file, file.name)
  return catalogApi.uploadCatalogItem(form)
}

export function useUploadCatalogItem() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: uploadCatalogItem,
    onSuccess: (_item, { kind }) => queryClient.invalidateQueries({ queryKey: catalogKeys.list(kind) }),
  })
}
