// Operators' calls: the showcase curation and the generation lookup (403 for anyone else).
import type { ApiQuery } from '@/types/api'
import { client, postForm, unwrap } from './client'

/** Every pair its owner shared (curated or not). */
export function getShowcaseCandidates(query: ApiQuery<'/api/v1/admin/showcase', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/admin/showcase', { params: { query }, signal }))
}

/** Shows a shared pair in the public showcase, or takes it off. */
export function curateShowcase(taskId: string, showcased: boolean) {
  return unwrap(client.PUT('/api/v1/admin/showcase/{taskId}', { params: { path: { taskId } }, body: { showcased } }))
}

/** A generation by its service id, or a user's latest 50 by their email. */
export function findGenerations(lookup: ApiQuery<'/api/v1/admin/generations', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/admin/generations', { params: { query: lookup }, signal }))
}

/** Multipart: a retouched version of a generated image. */
export function attachEdit(taskId: string, form: FormData) {
  return postForm('/api/v1/admin/edits/{taskId}', `/api/v1/admin/edits/${encodeURIComponent(taskId)}`, form)
}
