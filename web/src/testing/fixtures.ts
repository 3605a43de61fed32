// Test fixtures (not shipped: only *.test.* files import this).
import type { GenerationImage } from '@/types/api'

/** A finished image of a generation: its upload's thumbnail and one output, under fake URLs
 *  that say which image they belong to. */
export const completedImage = (taskId: string, extra: Partial<GenerationImage> = {}): GenerationImage => ({
  taskId,
  status: 'completed',
  stage: 'completed',
  progress: 100,
  inputKey: `uploads/a/${taskId}.jpg`,
  inputThumbnailUrl: `http://s3/in/${taskId}`,
  outputs: [{ key: `outputs/${taskId}.jpg`, url: `http://s3/o/${taskId}`, thumbnailUrl: `http://s3/ot/${taskId}` }],
  error: null,
  shared: false,
  comment: '',
  ...extra,
})
