import { useMutation } from '@tanstack/react-query'
import { postForm } from '@/api/client'
import type { ProvenanceCheck } from '@/types/api'

/**
 * What the server makes of an image file: its Content Credentials (C2PA) verdict against this
 * service's own signing chain and, when ours, what made it. The file goes as it is: the server
 * tells JPEG and PNG by their bytes, whatever the browser says the type is.
 */
export function checkImage(file: Blob): Promise<ProvenanceCheck> {
  const form = new FormData()
  form.append('file', file)
  return postForm('/api/v1/provenance', '/api/v1/provenance', form)
}

export function useCheckImage() {
  return useMutation({ mutationFn: (file: File) => checkImage(file) })
}
