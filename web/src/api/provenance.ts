// Checking an image's Content Credentials (C2PA): the file goes to the server as it is (the
// server tells JPEG and PNG by their bytes, whatever the browser says the type is) and is
// judged against this service's own signing chain.
import type { ProvenanceCheck } from '@/types/api'
import { postForm } from './client'

/** What the server makes of an image file: its verdict and, when ours, what made it. */
export function checkImage(file: Blob): Promise<ProvenanceCheck> {
  const form = new FormData()
  form.append('file', file)
  return postForm('/api/v1/provenance', '/api/v1/provenance', form)
}
