import { useMutation, useQueryClient } from '@tanstack/react-query'
import { client, unwrap } from '@/api/client'
import type { ApiBody, CreatedApiKey } from '@/types/api'
import { apiKeysQueryOptions } from './getApiKeys'

export function createApiKey(body: ApiBody<'/api/v1/api-keys', 'post'>): Promise<CreatedApiKey> {
  return unwrap(client.POST('/api/v1/api-keys', { body }))
}

/** Creates a key; the list is fetched again (the secret stays with the caller only). */
export function useCreateApiKey(userEmail: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions(userEmail).queryKey }),
  })
}
