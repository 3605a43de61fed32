import { createStore } from 'jotai'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import {
  addFilesAtom,
  defaultFlow,
  mergeFlowAtom,
  removeFileAtom,
  replaceFileAtom,
  resetFlowAtom,
  stepsFlowAtom,
  updateFileAtom,
  updateGenerationAtom,
  type FlowFile,
  type FlowGeneration,
} from './store'

function file(_id: string, patch: Partial<FlowFile> = {}): FlowFile {
  return {
    _id,
    name: `${_id}.jpg`,
    mimeType: 'image/jpeg',
    size: 10,
    source: 'upload',
    status: 'done',
    key: `uploads/${_id}.jpg`,
    serverId: `srv-${_id}`,
    url: `https://s3/${_id}.jpg`,
    thumbnailUrl: `https://s3/${_id}-thumb.jpg`,
    width: 100,
    height: 100,
    error: null,
    ...patch,
  }
}

function generation(id: string): FlowGeneration {
  return {
    id,
    kind: 'bodySwap',
    imageIds: ['t1'],
    credits: 1,
    createdAt: '2024-01-01T00:00:00Z',
    modelName: 'Ava',
    backgroundName: null,
    notifyEmail: null,
  }
}

const saved = () => JSON.parse(sessionStorage.getItem('mm:stepsflow') ?? 'null')

describe('steps flow store', () => {
  let store: ReturnType<typeof createStore>

  beforeEach(() => {
    sessionStorage.clear()
    store = createStore()
    store.set(resetFlowAtom)
  })

  it('starts with the spec defaults', () => {
    expect(store.get(stepsFlowAtom)).toEqual({
      stepZero: {},
      stepUploadImages: { isAllImagesUploaded: false, files: [], isGeneratedKey: false },
      stepSelectModel: { selectedModel: null },
      stepSelectBackground: { selectedBackground: null },
      stepGenerateImage: { generatedResponse: [] },
      isGeneratedClicked: false,
    })
  })

  it('merges one level deep and writes every change to sessionStorage mm:stepsflow', () => {
    store.set(mergeFlowAtom, { stepUploadImages: { isGeneratedKey: true } })
    const model = { _id: 'm1', name: 'Ava', category: 'women', url: 'u', thumbnailUrl: 't' }
    store.set(mergeFlowAtom, { stepSelectModel: { selectedModel: model }, isGeneratedClicked: true })

    const flow = store.get(stepsFlowAtom)
    expect(flow.stepSelectModel.selectedModel).toEqual(model)
    expect(flow.isGeneratedClicked).toBe(true)
    // The earlier merge into another step survived.
    expect(flow.stepUploadImages.isGeneratedKey).toBe(true)
    expect(flow.stepUploadImages.files).toEqual([])
    expect(saved()).toEqual(flow)
  })

  it('is ready once no upload is pending and one image is usable', () => {
    store.set(addFilesAtom, [file('a', { status: 'uploading', key: null }), file('b', { status: 'error', key: null })])
    expect(store.get(stepsFlowAtom).stepUploadImages.isAllImagesUploaded).toBe(false)
    store.set(updateFileAtom, { _id: 'a', patch: { status: 'done', key: 'uploads/a.jpg' } })
    expect(store.get(stepsFlowAtom).stepUploadImages.isAllImagesUploaded).toBe(true)
    expect(saved().stepUploadImages.isAllImagesUploaded).toBe(true)
  })

  it('replaces one image by index, and a new key means not generated yet', () => {
    store.set(addFilesAtom, [file('a'), file('b')])
    store.set(mergeFlowAtom, { stepUploadImages: { isGeneratedKey: true } })

    store.set(replaceFileAtom, { index: 1, file: file('b', { name: 'renamed.jpg' }) })
    expect(store.get(stepsFlowAtom).stepUploadImages.files[1]!.name).toBe('renamed.jpg')
    expect(store.get(stepsFlowAtom).stepUploadImages.isGeneratedKey).toBe(true) // same key

    store.set(replaceFileAtom, { index: 0, file: file('c') })
    const files = store.get(stepsFlowAtom).stepUploadImages.files
    expect(files.map((f) => f._id)).toEqual(['c', 'b'])
    expect(store.get(stepsFlowAtom).stepUploadImages.isGeneratedKey).toBe(false)
  })

  it('ignores a replacement outside the list', () => {
    store.set(addFilesAtom, [file('a')])
    const before = store.get(stepsFlowAtom)
    store.set(replaceFileAtom, { index: 3, file: file('z') })
    store.set(replaceFileAtom, { index: -1, file: file('z') })
    expect(store.get(stepsFlowAtom)).toBe(before)
  })

  it('removes an image by its _id only', () => {
    store.set(addFilesAtom, [file('a'), file('b'), file('c')])
    store.set(removeFileAtom, 'b')
    expect(store.get(stepsFlowAtom).stepUploadImages.files.map((f) => f._id)).toEqual(['a', 'c'])
    expect(saved().stepUploadImages.files).toHaveLength(2)
  })

  it('does not bring back an image removed while its upload was finishing', () => {
    store.set(addFilesAtom, [file('a', { status: 'uploading' })])
    store.set(removeFileAtom, 'a')
    store.set(updateFileAtom, { _id: 'a', patch: { status: 'done' } })
    expect(store.get(stepsFlowAtom).stepUploadImages.files).toEqual([])
  })

  it('adds a generation, then replaces it by id', () => {
    store.set(updateGenerationAtom, generation('s1'))
    store.set(updateGenerationAtom, generation('s2'))
    store.set(updateGenerationAtom, { ...generation('s1'), notifyEmail: 'a@b.co' })
    const generations = store.get(stepsFlowAtom).stepGenerateImage.generatedResponse
    expect(generations.map((g) => [g.id, g.notifyEmail])).toEqual([
      ['s1', 'a@b.co'],
      ['s2', null],
    ])
  })

  it('stores exactly the JSON of the flow, byte for byte', () => {
    store.set(addFilesAtom, [file('a'), file('b', { status: 'error', key: null, error: 'Too small' })])
    store.set(updateGenerationAtom, generation('s1'))
    expect(sessionStorage.getItem('mm:stepsflow')).toBe(JSON.stringify(store.get(stepsFlowAtom)))
  })

  it('is not restored again when first subscribed: an upload under way stays under way', () => {
    store.set(addFilesAtom, [file('a', { status: 'uploading', key: null })])
    const before = store.get(stepsFlowAtom)
    const unsubscribe = store.sub(stepsFlowAtom, () => undefined)
    expect(store.get(stepsFlowAtom)).toBe(before)
    expect(store.get(stepsFlowAtom).stepUploadImages.files[0]!.status).toBe('uploading')
    unsubscribe()
  })

  it('resets to the defaults', () => {
    store.set(addFilesAtom, [file('a')])
    store.set(mergeFlowAtom, { isGeneratedClicked: true })
    store.set(resetFlowAtom)
    expect(store.get(stepsFlowAtom)).toEqual(defaultFlow())
    expect(saved()).toEqual(defaultFlow())
  })
})

describe('steps flow restored from sessionStorage', () => {
  beforeEach(() => {
    sessionStorage.clear()
    vi.resetModules()
  })

  it('keeps finished images and marks interrupted uploads as failed', async () => {
    const flow = defaultFlow()
    flow.stepUploadImages.files = [file('a'), file('b', { status: 'uploading', key: null })]
    flow.isGeneratedClicked = true
    sessionStorage.setItem('mm:stepsflow', JSON.stringify(flow))

    const fresh = await import('./store')
    const restored = createStore().get(fresh.stepsFlowAtom)
    expect(restored.isGeneratedClicked).toBe(true)
    expect(restored.stepUploadImages.files.map((f) => f.status)).toEqual(['done', 'error'])
    expect(restored.stepUploadImages.files[1]!.error).toMatch(/interrupted/)
    expect(restored.stepUploadImages.isAllImagesUploaded).toBe(true)
  })

  it('restores a generation an earlier version saved under the wire names, leaving out its images (query cache)', async () => {
    const flow = defaultFlow()
    const { id, kind, imageIds, ...rest } = generation('s1')
    const old = { serviceId: id, requestType: kind, taskIds: imageIds, ...rest, tasks: [{ taskId: 't1', status: 'running' }] }
    sessionStorage.setItem('mm:stepsflow', JSON.stringify({ ...flow, stepGenerateImage: { generatedResponse: [old] } }))

    const fresh = await import('./store')
    const restored = createStore().get(fresh.stepsFlowAtom)
    expect(restored.stepGenerateImage.generatedResponse).toEqual([generation('s1')])
  })

  it('falls back to the defaults when the saved value is not JSON', async () => {
    sessionStorage.setItem('mm:stepsflow', '{broken')
    const fresh = await import('./store')
    expect(createStore().get(fresh.stepsFlowAtom)).toEqual(fresh.defaultFlow())
  })
})

describe('resetFlowAndUploads', () => {
  it('cancels uploads still running and clears progress and previews', async () => {
    vi.resetModules()
    const flowModule = await import('./store')
    const { appStore } = await import('@/stores/appStore')
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined)
    const ctrl = new AbortController()
    flowModule.registerUpload('a', ctrl)
    appStore.set(flowModule.addFilesAtom, [file('a', { status: 'uploading' })])
    appStore.set(flowModule.uploadProgressAtom, { a: 0.5 })
    appStore.set(flowModule.localPreviewAtom, { a: 'blob:preview-a' })

    flowModule.resetFlowAndUploads()

    expect(ctrl.signal.aborted).toBe(true)
    expect(revoke).toHaveBeenCalledWith('blob:preview-a')
    expect(appStore.get(flowModule.uploadProgressAtom)).toEqual({})
    expect(appStore.get(flowModule.localPreviewAtom)).toEqual({})
    expect(appStore.get(flowModule.stepsFlowAtom)).toEqual(flowModule.defaultFlow())
  })
})
