// A generation's tasks: their status (long polls) and re-rendering one with another placement.
import type { ApiBody } from '@/types/api'
import { client, unwrap } from './client'

/**
 * Task status. With `since` (what the page shows now) the server answers as soon as
 * something differs from it, or after `waitMs`: a long poll. The ids go as a JSON array.
 */
export function pollTasks(taskIds: string[], signal: AbortSignal | undefined, since: string | undefined, waitMs: number) {
  const query = { taskIds: JSON.stringify(taskIds), ...(since === undefined ? {} : { since, waitMs }) }
  return unwrap(client.GET('/api/v1/task/pollTasks', { params: { query }, signal }))
}

export function adjustPlacement(taskId: string, body: ApiBody<'/api/v1/task/{taskId}/placement', 'post'>) {
  return unwrap(client.POST('/api/v1/task/{taskId}/placement', { params: { path: { taskId } }, body }))
}
