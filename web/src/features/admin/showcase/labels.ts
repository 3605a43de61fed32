import type { GenerationKind, GenerationStatus } from '@/types/api'

export const KIND_LABELS: Record<GenerationKind, string> = {
  bodySwap: 'Model swap',
  burstreplace: 'Background replace',
}

export const STATUS_LABELS: Record<GenerationStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString()
}
