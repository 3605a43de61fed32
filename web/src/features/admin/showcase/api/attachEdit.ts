import { useMutation, useQueryClient } from '@tanstack/react-query'
import { postForm } from '@/api/client'
import type { ApiData } from '@/types/api'
import { adminGenerationsKey } from './findGenerations'

export type EditedImage = ApiData<'/api/v1/admin/edits/{taskId}', 'post'>

export interface AttachEditVariables {
  imageId: string
  file: File
}

/** Attaches a retouched version to a generated image; its owner sees "Edited" and gets a mail. */
export function attachEdit({ imageId, file }: AttachEditVariables): Promise<EditedImage> {
  const form = new FormData()
  form.append('file', file, file.name)
  return postForm('/api/v1/admin/edits/{taskId}', `/api/v1/admin/edits/${encodeURIComponent(imageId)}`, form)
}

export function useAttachEdit() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: attachEdit,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminGenerationsKey }),
  })
}
