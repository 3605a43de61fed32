// Shapes of the server contract (responses are unwrapped from `{ data }` by lib/api).

export type RequestType = 'bodySwap' | 'burstreplace'

export interface Paged<T> {
  items: T[]
  total: number
}

export interface Credits {
  free: number
  paid: number
  total: number
}

export interface PresignedUpload {
  url: string
  key: string
  _id: string
}

export interface Thumbnail {
  key: string
  url: string
  thumbnailKey: string
  thumbnailUrl: string
  width: number
  height: number
}

export interface SampleImage {
  _id: string
  key: string
  url: string
  thumbnailUrl: string
}

export interface CatalogModel {
  _id: string
  name: string
  category: string
  url: string
  thumbnailUrl: string
}

export interface Seed {
  _id: string
  name: string
  type: 'background' | 'model'
  url: string
  thumbnailUrl: string
  builtin: boolean
}

export type TaskStatus = 'queued' | 'running' | 'completed' | 'failed'

export interface TaskOutput {
  key: string
  url: string
  thumbnailUrl: string
}

export interface Task {
  taskId: string
  status: TaskStatus
  progress: number
  inputKey: string
  outputs: TaskOutput[]
  error: string | null
}

export interface ServiceSubmitted {
  serviceId: string
  taskIds: string[]
  status: string
  credits: number
}

export interface ServiceJob {
  serviceId: string
  service: string
  status: string
  credits: number
  tasks: Task[]
}
