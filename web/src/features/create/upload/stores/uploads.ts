/**
 * Upload orchestration. Lives outside components so an upload keeps going
 * (and can be cancelled) regardless of which component is mounted. The two
 * server calls run as mutations of the shared query client (lib/queryClient).
 */
import { ACCEPTED_IMAGE_TYPES, UPLOAD_REQUEST_TYPE } from '@/config'
import { putToStorage } from '@/api/external'
import { ApiError, errorMessage, isAbortError } from '@/lib/api'
import { formatBytes } from '@/lib/format'
import { newUuid } from '@/lib/identity'
import { runMutation } from '@/lib/queryClient'
import { uploadLimits } from '@/api/siteConfig'
import { appStore } from '@/stores/appStore'
import {
  addFilesAtom,
  cancelUpload,
  localPreviewAtom,
  registerUpload,
  removeFileAtom,
  stepsFlowAtom,
  unregisterUpload,
  updateFileAtom,
  uploadProgressAtom,
  type FlowFile,
} from '@/features/create/store'
import type { PhotoAnalysis, SampleImage } from '@/types/api'
import { createThumbnail } from '../api/createThumbnail'
import { getPhotoAnalysis } from '../api/getPhotoAnalysis'
import { getPresignedUrl } from '../api/getPresignedUrl'

type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number]

/** The browser's early check, with the server's limits (GET /api/v1/config). */
export function validate(file: File): string | null {
  const { maxBytes, acceptedTypes } = uploadLimits()
  if (!acceptedTypes.includes(file.type)) {
    return 'Unsupported file type. Use a JPG, PNG or WebP image.'
  }
  if (file.size > maxBytes) {
    return `The file is ${formatBytes(file.size)}; the limit is ${formatBytes(maxBytes)}.`
  }
  if (file.size === 0) return 'The file is empty.'
  return null
}

function setProgress(id: string, value: number | null): void {
  appStore.set(uploadProgressAtom, (prev) => {
    const next = { ...prev }
    if (value === null) delete next[id]
    else next[id] = value
    return next
  })
}

function setPreview(id: string, url: string | null): void {
  appStore.set(localPreviewAtom, (prev) => {
    const next = { ...prev }
    const old = next[id]
    if (old) URL.revokeObjectURL(old)
    if (url === null) delete next[id]
    else next[id] = url
    return next
  })
}

function update(_id: string, patch: Partial<FlowFile>): void {
  appStore.set(updateFileAtom, { _id, patch })
}

function rejectionMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 422) return `This image can't be used: ${err.message}`
  return errorMessage(err)
}

async function upload(entry: FlowFile, file: File): Promise<void> {
  const ctrl = new AbortController()
  registerUpload(entry._id, ctrl)
  try {
    const presigned = await runMutation(
      (params: Parameters<typeof getPresignedUrl>[0]) => getPresignedUrl(params, ctrl.signal),
      // validate() let only the accepted types through.
      // The size is signed into the URL: storage then accepts exactly this file and no other.
      {
        filename: file.name,
        mimeType: file.type as AcceptedImageType,
        requestType: UPLOAD_REQUEST_TYPE,
        size: file.size,
      },
    )
    update(entry._id, { key: presigned.key, serverId: presigned._id })
    setProgress(entry._id, 0)
    await putToStorage(presigned.url, file, file.type, (f) => setProgress(entry._id, f), ctrl.signal)

    update(entry._id, { status: 'processing' })
    const thumb = await runMutation((key: string) => createThumbnail(key, ctrl.signal), presigned.key)
    update(entry._id, {
      status: 'done',
      key: thumb.key || presigned.key,
      url: thumb.url,
      thumbnailUrl: thumb.thumbnailUrl,
      width: thumb.width,
      height: thumb.height,
      error: null,
      analysis: thumb.analysis ?? null,
    })
    if (!thumb.analysis) {
      const late = await awaitAnalysis(presigned.key, ctrl.signal)
      if (late) update(entry._id, { analysis: late })
    }
  } catch (err) {
    if (isAbortError(err)) return // removed by the user
    update(entry._id, { status: 'error', error: rejectionMessage(err) })
  } finally {
    unregisterUpload(entry._id)
    setProgress(entry._id, null)
  }
}

// The server waits about a second for a photo's analysis; when the imaging workers are busy it
// comes later, and GET /api/v1/util/photoAnalysis returns it once stored.
const ANALYSIS_RETRIES = 8
const ANALYSIS_RETRY_MS = 1500

/** Asks for a late analysis until it is there (or the upload is removed): null when it never
 * came, which leaves the photo usable, only without the advice. */
export async function awaitAnalysis(
  key: string,
  signal: AbortSignal,
  ask: (key: string, signal: AbortSignal) => Promise<PhotoAnalysis | null> = getPhotoAnalysis,
  waitMs = ANALYSIS_RETRY_MS,
): Promise<PhotoAnalysis | null> {
  for (let attempt = 0; attempt < ANALYSIS_RETRIES && !signal.aborted; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, waitMs))
    if (signal.aborted) return null
    try {
      const analysis = await ask(key, signal)
      if (analysis) return analysis
    } catch {
      return null
    }
  }
  return null
}

/** Adds picked/dropped files to the flow and starts uploading the valid ones. */
export function addLocalFiles(files: Iterable<File>): void {
  const toUpload: Array<[FlowFile, File]> = []
  const entries: FlowFile[] = []
  for (const file of files) {
    const problem = validate(file)
    const entry: FlowFile = {
      _id: newUuid(),
      name: file.name,
      mimeType: file.type,
      size: file.size,
      source: 'upload',
      status: problem ? 'error' : 'uploading',
      key: null,
      serverId: null,
      url: null,
      thumbnailUrl: null,
      width: null,
      height: null,
      error: problem,
    }
    entries.push(entry)
    if (!problem) {
      toUpload.push([entry, file])
      setPreview(entry._id, URL.createObjectURL(file))
    }
  }
  appStore.set(addFilesAtom, entries)
  for (const [entry, file] of toUpload) void upload(entry, file)
}

/** A sample is already in storage: it joins the flow as an uploaded file. */
export function addSample(sample: SampleImage): void {
  const files = appStore.get(stepsFlowAtom).stepUploadImages.files
  if (files.some((f) => f.source === 'sample' && f.serverId === sample._id)) return
  appStore.set(addFilesAtom, [
    {
      _id: newUuid(),
      name: sample.name || 'Sample photo',
      mimeType: 'image/jpeg',
      size: 0,
      source: 'sample',
      status: 'done',
      key: sample.key,
      serverId: sample._id,
      url: sample.url,
      thumbnailUrl: sample.thumbnailUrl || sample.url,
      width: null,
      height: null,
      error: null,
    },
  ])
}

export function removeUpload(_id: string): void {
  cancelUpload(_id)
  setPreview(_id, null)
  appStore.set(removeFileAtom, _id)
}
