// The admin catalog: digital models and backgrounds (admins only: 403 else).
import type { ApiBody, ApiQuery } from '@/types/api'
import { client, postForm, unwrap } from './client'

const PATH = '/api/v1/admin/catalog'

export function getCatalogItems(kind: ApiQuery<typeof PATH, 'get'>['kind'], signal?: AbortSignal) {
  return unwrap(client.GET(PATH, { params: { query: { kind } }, signal }))
}

/** Multipart: the photo with its name and category; the server vets it (422 with the reason). */
export function uploadCatalogItem(form: FormData) {
  return postForm(PATH, PATH, form)
}

export function updateCatalogItem(itemId: string, changes: ApiBody<'/api/v1/admin/catalog/{itemId}', 'patch'>) {
  return unwrap(client.PATCH('/api/v1/admin/catalog/{itemId}', { params: { path: { itemId } }, body: changes }))
}

export function moveCatalogItem(itemId: string, body: ApiBody<'/api/v1/admin/catalog/{itemId}/move', 'post'>) {
  return unwrap(client.POST('/api/v1/admin/catalog/{itemId}/move', { params: { path: { itemId } }, body }))
}

export function deleteCatalogItem(itemId: string) {
  return unwrap(client.DELETE('/api/v1/admin/catalog/{itemId}', { params: { path: { itemId } } }))
}
