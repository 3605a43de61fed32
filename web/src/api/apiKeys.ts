// The signed-in user's API keys: list, create (the secret is in that answer only) and revoke.
import type { ApiBody } from '@/types/api'
import { client, unwrap } from './client'

/** The keys that work now, newest first (never their secrets). */
export function listApiKeys(signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/api-keys', { signal }))
}

/** Answered with 201 (not 200); `secret` is in this answer only. */
export function createApiKey(body: ApiBody<'/api/v1/api-keys', 'post'>) {
  return unwrap(client.POST('/api/v1/api-keys', { body }))
}

/** Revokes the key for good. */
export function revokeApiKey(keyId: string) {
  return unwrap(client.DELETE('/api/v1/api-keys/{key_id}', { params: { path: { key_id: keyId } } }))
}
