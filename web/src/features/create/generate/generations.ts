import type { DownloadData } from '@/stores/download'
import type { Generation, GenerationImage } from '@/types/api'

/** A task the server has not reported yet. */
export function queuedImage(taskId: string): GenerationImage {
  return {
    taskId,
    status: 'queued',
    stage: '',
    progress: 0,
    inputKey: '',
    inputThumbnailUrl: '',
    outputs: [],
    error: null,
    shared: false,
    comment: '',
  }
}

export function isTerminal(task: GenerationImage): boolean {
  return task.status === 'completed' || task.status === 'failed'
}

/** A generation has finished when its tasks are known and every one completed or failed. */
export function generationFinished(tasks: GenerationImage[]): boolean {
  return tasks.length > 0 && tasks.every(isTerminal)
}

/**
 * A generation's tasks in its order (`taskIds`): the fresh state where the server reported one,
 * else the state known before, else queued.
 */
export function mergeImages(taskIds: string[], known: GenerationImage[], fresh: GenerationImage[]): GenerationImage[] {
  const byId = new Map(fresh.map((t) => [t.taskId, t]))
  return taskIds.map((id) => byId.get(id) ?? known.find((t) => t.taskId === id) ?? queuedImage(id))
}

/** The `since` of a long poll: each task's `status:progress`, in taskIds order (see the API). */
export function imageState(taskIds: string[], tasks: GenerationImage[]): string {
  const byId = new Map(tasks.map((t) => [t.taskId, t]))
  return taskIds
    .map((id) => {
      const t = byId.get(id)
      return t ? `${t.status}:${t.progress}` : 'queued:0'
    })
    .join(',')
}

/** A generation as the server reports it is over: its status and every task are terminal. */
export function generationSettled(service: Generation): boolean {
  return (service.status === 'completed' || service.status === 'failed') && service.tasks.every(isTerminal)
}

/** The images of a generation for the download store: originals, and retouched versions. */
export function downloadImages(service: Generation): DownloadData {
  return {
    generatedImages: service.tasks.flatMap((t) => t.outputs.map((o) => ({ ...o, taskId: t.taskId }))),
    manualEditingImages: service.tasks.flatMap((t) => (t.edited ? [{ ...t.edited, taskId: t.taskId }] : [])),
  }
}
