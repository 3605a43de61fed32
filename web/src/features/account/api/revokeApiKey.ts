import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiData } from '@/types/api'
import { apiKeysQueryOptions } from './getApiKeys'

export function revokeApiKey(keyId: string): Promise<ApiData<'/api/v1/api-keys/{key_id}', 'delete'>> {
  return unwrap(client.DELETE('/api/v1/api-keys/{key_id}', { params: { path: { key_id: keyId } } }))
}

/** Revokes a key for good, then fetches the list again. */
export function useRevokeApiKey(userEmail: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions(userEmail).queryKey }),
  })
}
