/**
 * The server's photo analysis in plain words, for the line under each upload: what the photo
 * shows, and for each kind of generation whether it can be used and, when not, why.
 */
import type { PhotoAnalysis } from '@/types/api'

const KINDS = [
  ['bodySwap', 'Model swap'],
  ['burstreplace', 'New background'],
] as const

export interface KindVerdict {
  kind: (typeof KINDS)[number][0]
  label: string
  ok: boolean
  reason: string | null
}

export function describePhoto(analysis: PhotoAnalysis): string {
  switch (analysis.kind) {
    case 'person': {
      const who = analysis.people > 1 ? `${analysis.people} people` : 'A person'
      const view = analysis.view === 'back' ? 'seen from behind' : analysis.view === 'side' ? 'turned to the side' : 'facing the camera'
      return `${who}, ${view}`
    }
    case 'garment':
      return analysis.garment ? `A garment (${analysis.garment})` : 'A garment'
    default:
      return 'No person or garment found'
  }
}

export function kindVerdicts(analysis: PhotoAnalysis): KindVerdict[] {
  return KINDS.map(([kind, label]) => {
    const can = analysis.can[kind]
    return { kind, label, ok: can?.ok ?? false, reason: can?.ok ? null : (can?.reason ?? null) }
  })
}
