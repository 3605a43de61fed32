import { useMutation, useQueryClient } from '@tanstack/react-query'
import { postForm } from '@/api/client'
import type { ApiData } from '@/types/api'
import type { BodyType, Gender, SkinTone } from '../attributes'
import { CATALOG_PATH, catalogKeys, type CatalogKind } from './keys'

type Uploaded = ApiData<typeof CATALOG_PATH, 'post'>

export interface CatalogUpload {
  kind: CatalogKind
  file: File
  name: string
  category: string
  description?: string
  /** Digital models only (the server refuses them for a background); unset ones are not sent. */
  gender?: Gender | ''
  skinTone?: SkinTone | ''
  bodyType?: BodyType | ''
}

/** Multipart: the photo with its name, category, description and (models) attributes; the
 *  server vets it (422 with the reason). */
export function uploadCatalogItem({
  kind,
  file,
  name,
  category,
  description = '',
  gender = '',
  skinTone = '',
  bodyType = '',
}: CatalogUpload): Promise<Uploaded> {
  const form = new FormData()
  form.append('kind', kind)
  form.append('name', name)
  form.append('category', category)
  form.append('description', description)
  if (kind === 'model') {
    if (gender) form.append('gender', gender)
    if (skinTone) form.append('skinTone', skinTone)
    if (bodyType) form.append('bodyType', bodyType)
  }
  form.append('file', file, file.name)
  return postForm(CATALOG_PATH, CATALOG_PATH, form)
}

export function useUploadCatalogItem() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: uploadCatalogItem,
    onSuccess: (_item, { kind }) => queryClient.invalidateQueries({ queryKey: catalogKeys.list(kind) }),
  })
}
