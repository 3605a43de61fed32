import type { RequestType, TaskStatus } from '@/types/api'

export const SERVICE_LABELS: Record<RequestType, string> = {
  bodySwap: 'Model swap',
  burstreplace: 'Background replace',
}

export const STATUS_LABELS: Record<TaskStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString()
}
