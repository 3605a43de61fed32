/**
 * Which of the flow's photos each kind of generation can use, before anyone pays (issue 33 items 8 and 9): the
 * server's analysis of each photo says whether a model swap or a new background can use it, and
 * for a model swap the model list given the photos says which models their skin tone can reach.
 * The pages count, price and send only the usable photos, and list the others with the reason.
 */
import type { GenerationKind } from '@/types/api'
import type { FlowFile } from './store'

export interface UnusablePhoto {
  file: FlowFile
  /** 1-based position among the flow's photos, as the page shows them ("Image 2"). */
  number: number
  reason: string
}

/** What the model list needs from a model to judge the photos (GET /api/v1/models). */
export interface ModelFitLike {
  compatible?: boolean | null
  reason?: string | null | undefined
  incompatibleUploads?: string[] | undefined
}

const OTHER: Record<GenerationKind, GenerationKind> = { bodySwap: 'burstreplace', burstreplace: 'bodySwap' }

export const KIND_NAMES: Record<GenerationKind, string> = { bodySwap: 'model swap', burstreplace: 'new background' }

function uploaded(file: FlowFile): boolean {
  return file.status === 'done' && !!file.key
}

/** Why the photo's own analysis rules `kind` out, or null (also when not analysed: the
 * submit and the engine still check it). */
export function analysisRefusal(file: FlowFile, kind: GenerationKind): string | null {
  const can = file.analysis?.can[kind]
  return can && !can.ok ? (can.reason ?? 'This photo cannot be used for this.') : null
}

/** The uploads the model list is asked about: the caller's own photos a model swap can use
 * (samples are the catalog's, and a photo refused outright fits no model anyway). */
export function swapFitKeys(files: FlowFile[]): string[] {
  return files
    .filter((f) => f.source === 'upload' && uploaded(f) && analysisRefusal(f, 'bodySwap') === null)
    .map((f) => f.key!)
}

/**
 * The flow's uploaded photos that `kind` cannot use, each with its reason: the analysis's, or
 * for a model swap to a model whose fit is known, the model's (its skin tone too far).
 */
export function unusablePhotos(files: FlowFile[], kind: GenerationKind, fit?: ModelFitLike | null): UnusablePhoto[] {
  const unfit = new Set(fit?.compatible === false ? (fit.incompatibleUploads ?? []) : [])
  const found: UnusablePhoto[] = []
  files.forEach((file, index) => {
    if (!uploaded(file)) return
    const reason =
      analysisRefusal(file, kind) ??
      (kind === 'bodySwap' && file.serverId && unfit.has(file.serverId) ? (fit?.reason ?? null) : null)
    if (reason) found.push({ file, number: index + 1, reason })
  })
  return found
}

/** The uploaded photos `kind` can use (what is counted, priced and sent). */
export function usablePhotos(files: FlowFile[], kind: GenerationKind, fit?: ModelFitLike | null): FlowFile[] {
  const unusable = new Set(unusablePhotos(files, kind, fit).map((u) => u.file._id))
  return files.filter((f) => uploaded(f) && !unusable.has(f._id))
}

/** The other kind, when it would take every photo this one cannot (e.g. a group photo a model
 * swap refuses can still get a new background); null otherwise. */
export function switchableKind(unusable: UnusablePhoto[], kind: GenerationKind): GenerationKind | null {
  if (!unusable.length) return null
  const other = OTHER[kind]
  return unusable.every((u) => analysisRefusal(u.file, other) === null) ? other : null
}

/** The upload page's status line: how many photos are ready, and for which kind when a
 * kind cannot use them all ("3 images ready: 3 for a new background, none for a model swap"). */
export function readiness(files: FlowFile[]): string {
  const ready = files.filter(uploaded)
  if (!ready.length) return ''
  const total = `${ready.length} image${ready.length === 1 ? '' : 's'} ready`
  const counts = (['bodySwap', 'burstreplace'] as const).map((kind) => ({
    kind,
    usable: ready.filter((f) => analysisRefusal(f, kind) === null).length,
  }))
  if (counts.every((c) => c.usable === ready.length)) return total
  const parts = counts.map((c) => `${c.usable === 0 ? 'none' : c.usable} for a ${KIND_NAMES[c.kind]}`)
  return `${total}: ${parts.join(', ')}`
}
