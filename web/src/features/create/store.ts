/**
 * The "Create New Image" step flow: what the user chose (images, model, background) and the
 * generations this tab started. Shape and storage key (mm:stepsflow in sessionStorage) follow
 * the product spec; every change is written through. The state of a generation's images is
 * server state and lives only in the query cache (generate/api/pollImages).
 */
import { atom, type Getter, type Setter } from 'jotai'
import { atomWithStorage } from 'jotai/utils'
import { STORAGE_KEYS } from '@/config'
import { writeThroughJsonStorage } from '@/lib/storage'
import { appStore } from '@/stores/appStore'
import { registerFlowReset } from '@/stores/flowReset'
import type { PhotoAnalysis, GenerationKind } from '@/types/api'

export type UploadStatus = 'uploading' | 'processing' | 'done' | 'error'

export interface FlowFile {
  /** Client-side id, stable for the life of the flow (removal is by this id). */
  _id: string
  name: string
  mimeType: string
  size: number
  source: 'upload' | 'sample'
  status: UploadStatus
  /** Storage key once known; this is what the generation request sends. */
  key: string | null
  /** The server's id for the upload request (or the sample id). */
  serverId: string | null
  url: string | null
  thumbnailUrl: string | null
  width: number | null
  height: number | null
  error: string | null
  /** The server's analysis of the photo (createThumbnail); absent for samples and until known. */
  analysis?: PhotoAnalysis | null
}

export interface SelectedModel {
  _id: string
  name: string
  category: string
  url: string
  thumbnailUrl: string
}

export interface SelectedBackground {
  _id: string
  name: string
  url: string
  thumbnailUrl: string
  builtin: boolean
}

/**
 * A generation this tab submitted, as the flow keeps it (the server's view is `Generation`).
 * Its images are not kept here: they are read from the query cache (useImagePolling).
 * `id` and `imageIds` are the server's `serviceId` and `taskIds`.
 */
export interface FlowGeneration {
  id: string
  kind: GenerationKind
  imageIds: string[]
  credits: number
  createdAt: string
  modelName: string | null
  backgroundName: string | null
  notifyEmail: string | null
}

export interface StepsFlow {
  stepZero: Record<string, never>
  stepUploadImages: {
    isAllImagesUploaded: boolean
    files: FlowFile[]
    /** True once the current set of files has been sent for generation. */
    isGeneratedKey: boolean
  }
  stepSelectModel: { selectedModel: SelectedModel | null }
  stepSelectBackground: { selectedBackground: SelectedBackground | null }
  stepGenerateImage: { generatedResponse: FlowGeneration[] }
  isGeneratedClicked: boolean
}

export type FlowPatch = {
  stepUploadImages?: Partial<StepsFlow['stepUploadImages']>
  stepSelectModel?: Partial<StepsFlow['stepSelectModel']>
  stepSelectBackground?: Partial<StepsFlow['stepSelectBackground']>
  stepGenerateImage?: Partial<StepsFlow['stepGenerateImage']>
  isGeneratedClicked?: boolean
}

export function defaultFlow(): StepsFlow {
  return {
    stepZero: {},
    stepUploadImages: { isAllImagesUploaded: false, files: [], isGeneratedKey: false },
    stepSelectModel: { selectedModel: null },
    stepSelectBackground: { selectedBackground: null },
    stepGenerateImage: { generatedResponse: [] },
    isGeneratedClicked: false,
  }
}

/** Files that can be sent to generation. */
export function usableFiles(files: FlowFile[]): FlowFile[] {
  return files.filter((f) => f.status === 'done' && f.key)
}

/** Ready when nothing is still uploading and at least one image is usable. */
function allUploaded(files: FlowFile[]): boolean {
  return usableFiles(files).length > 0 && files.every((f) => f.status === 'done' || f.status === 'error')
}

function withFiles(flow: StepsFlow, files: FlowFile[], filesChanged: boolean): StepsFlow {
  return {
    ...flow,
    stepUploadImages: {
      ...flow.stepUploadImages,
      files,
      isAllImagesUploaded: allUploaded(files),
      // A different set of inputs has not been generated yet.
      isGeneratedKey: filesChanged ? false : flow.stepUploadImages.isGeneratedKey,
    },
  }
}

/** A generation as an earlier version saved it, under the wire's names (and with its images). */
interface SavedGeneration extends Partial<FlowGeneration> {
  serviceId?: string
  requestType?: GenerationKind
  taskIds?: string[]
}

/** A saved generation under today's names, whichever version saved it, without its images (server state). */
function restoreGeneration(saved: SavedGeneration): FlowGeneration {
  const { credits, createdAt, modelName, backgroundName, notifyEmail } = saved
  const id = saved.id ?? saved.serviceId
  const kind = saved.kind ?? saved.requestType
  const imageIds = saved.imageIds ?? saved.taskIds
  return { id, kind, imageIds, credits, createdAt, modelName, backgroundName, notifyEmail } as FlowGeneration
}

/** The flow to start from, given what sessionStorage held (parsed; null when absent or unreadable). */
function restoreFlow(stored: unknown): StepsFlow {
  const saved = stored as Partial<StepsFlow> | null
  const base = defaultFlow()
  if (!saved || typeof saved !== 'object') return base
  const stepGenerateImage = { ...base.stepGenerateImage, ...saved.stepGenerateImage }
  const generations = Array.isArray(stepGenerateImage.generatedResponse) ? stepGenerateImage.generatedResponse : []
  const flow: StepsFlow = {
    stepZero: {},
    stepUploadImages: { ...base.stepUploadImages, ...saved.stepUploadImages },
    stepSelectModel: { ...base.stepSelectModel, ...saved.stepSelectModel },
    stepSelectBackground: { ...base.stepSelectBackground, ...saved.stepSelectBackground },
    // A flow saved by an earlier version also kept the images (server state, left out) and named
    // the rest as the wire does (serviceId, requestType, taskIds).
    stepGenerateImage: { generatedResponse: generations.map(restoreGeneration) },
    isGeneratedClicked: saved.isGeneratedClicked === true,
  }
  const files = Array.isArray(flow.stepUploadImages.files) ? flow.stepUploadImages.files : []
  // An upload cannot survive a page reload (the File object is gone).
  const restored = files.map((f) =>
    f.status === 'uploading' || f.status === 'processing'
      ? { ...f, status: 'error' as const, error: 'Upload was interrupted. Remove it and add the image again.' }
      : f,
  )
  return withFiles(flow, restored, false)
}

/** The flow, restored from sessionStorage (mm:stepsflow) on start and written back on every change. */
const flowBaseAtom = atomWithStorage<StepsFlow>(
  STORAGE_KEYS.stepsFlow,
  defaultFlow(),
  writeThroughJsonStorage('session', restoreFlow),
  { getOnInit: true },
)

/** Read-only view of the flow; change it only through the action atoms below. */
export const stepsFlowAtom = atom((get) => get(flowBaseAtom))

function commit(set: Setter, next: StepsFlow): void {
  set(flowBaseAtom, next)
}

function current(get: Getter): StepsFlow {
  return get(flowBaseAtom)
}

/** Merge: each step object is merged one level deep. */
export const mergeFlowAtom = atom(null, (get, set, patch: FlowPatch) => {
  const flow = current(get)
  let next: StepsFlow = {
    ...flow,
    stepSelectModel: { ...flow.stepSelectModel, ...patch.stepSelectModel },
    stepSelectBackground: { ...flow.stepSelectBackground, ...patch.stepSelectBackground },
    stepGenerateImage: { ...flow.stepGenerateImage, ...patch.stepGenerateImage },
    isGeneratedClicked: patch.isGeneratedClicked ?? flow.isGeneratedClicked,
    stepUploadImages: { ...flow.stepUploadImages, ...patch.stepUploadImages },
  }
  if (patch.stepUploadImages?.files) next = withFiles(next, patch.stepUploadImages.files, true)
  commit(set, next)
})

export const addFilesAtom = atom(null, (get, set, files: FlowFile[]) => {
  const flow = current(get)
  commit(set, withFiles(flow, [...flow.stepUploadImages.files, ...files], true))
})

/** Replace one image by its index in the list. */
export const replaceFileAtom = atom(null, (get, set, { index, file }: { index: number; file: FlowFile }) => {
  const flow = current(get)
  const files = flow.stepUploadImages.files
  if (index < 0 || index >= files.length) return
  const next = files.slice()
  const keyChanged = files[index]?.key !== file.key
  next[index] = file
  commit(set, withFiles(flow, next, keyChanged))
})

/**
 * Patch an image found by id. Uploads finish asynchronously while the user may
 * remove other images, so the index is looked up at the moment of the update.
 */
export const updateFileAtom = atom(null, (get, set, { _id, patch }: { _id: string; patch: Partial<FlowFile> }) => {
  const files = current(get).stepUploadImages.files
  const index = files.findIndex((f) => f._id === _id)
  const prev = files[index]
  if (!prev) return // removed meanwhile
  set(replaceFileAtom, { index, file: { ...prev, ...patch } })
})

export const removeFileAtom = atom(null, (get, set, _id: string) => {
  const flow = current(get)
  commit(
    set,
    withFiles(
      flow,
      flow.stepUploadImages.files.filter((f) => f._id !== _id),
      true,
    ),
  )
})

export const resetFlowAtom = atom(null, (_get, set) => {
  commit(set, defaultFlow())
})

/** Replace a generation (by id) with a newer snapshot, or add it. */
export const updateGenerationAtom = atom(null, (get, set, generation: FlowGeneration) => {
  const flow = current(get)
  const generations = flow.stepGenerateImage.generatedResponse
  const exists = generations.some((g) => g.id === generation.id)
  const next = exists ? generations.map((g) => (g.id === generation.id ? generation : g)) : [...generations, generation]
  set(mergeFlowAtom, { stepGenerateImage: { generatedResponse: next } })
})

// ---------------------------------------------------------------------------
// Not persisted: changes many times a second and is meaningless after a reload.

/** Upload progress per file id, 0..1. */
export const uploadProgressAtom = atom<Record<string, number>>({})

/** Local object-URL previews per file id, shown until the server thumbnail exists. */
export const localPreviewAtom = atom<Record<string, string>>({})

// ---------------------------------------------------------------------------
// Uploads still running, so that resetting the flow (start page, logout, "Create
// another image") can cancel them. The upload feature registers each one.

const inFlight = new Map<string, AbortController>()

export function registerUpload(_id: string, ctrl: AbortController): void {
  inFlight.set(_id, ctrl)
}

export function unregisterUpload(_id: string): void {
  inFlight.delete(_id)
}

export function cancelUpload(_id: string): void {
  inFlight.get(_id)?.abort()
  inFlight.delete(_id)
}

/** Resets the whole flow, cancelling uploads still running and freeing local previews. */
export function resetFlowAndUploads(): void {
  for (const ctrl of inFlight.values()) ctrl.abort()
  inFlight.clear()
  for (const url of Object.values(appStore.get(localPreviewAtom))) URL.revokeObjectURL(url)
  appStore.set(localPreviewAtom, {})
  appStore.set(uploadProgressAtom, {})
  appStore.set(resetFlowAtom)
}

// Logging out (the auth feature) resets the flow through the shared stores/flowReset.
registerFlowReset(resetFlowAndUploads)
