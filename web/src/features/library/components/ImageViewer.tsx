import { ImageViewer as Viewer, type ViewerItem } from '@/components/viewer/ImageViewer'
import { formatWhen, KIND_LABELS, type LibraryImage } from '../generations'

/** A finished image of My Images as the viewer shows it: generated and edited, with its input. */
function viewerItem(image: LibraryImage, number: number): ViewerItem {
  const { generation, task } = image
  const output = task.outputs[0]
  const edited = task.edited ?? null
  return {
    id: task.taskId,
    title: `${KIND_LABELS[generation.service]} · ${formatWhen(generation.createdAt)}`,
    versions: [
      ...(output
        ? [{ label: 'Generated', url: output.url, alt: `Generated image ${number}, full size`, credentials: task.contentCredentials }]
        : []),
      ...(edited
        ? [{ label: 'Edited', url: edited.url, alt: `Edited image ${number}, full size`, credentials: task.editedCredentials }]
        : []),
    ],
    inputUrl: task.inputThumbnailUrl || null,
    downloads: [
      ...(output
        ? [{ url: output.url, storageKey: output.key, fileBaseName: `metamodel-${task.taskId}`, label: 'Download original', text: 'Download original' }]
        : []),
      ...(edited
        ? [{ url: edited.url, storageKey: edited.key, fileBaseName: `metamodel-${task.taskId}-edited`, label: 'Download edited version', text: 'Download edited' }]
        : []),
    ],
  }
}

interface ImageViewerProps {
  /** The finished images of the page, in its order: ← and → walk through them. */
  images: readonly LibraryImage[]
  /** The task id of the image shown. */
  taskId: string
  onNavigate: (taskId: string) => void
  onClose: () => void
}

/** My Images' full-size viewer over the page's finished images. */
export function ImageViewer({ images, taskId, onNavigate, onClose }: ImageViewerProps) {
  const items = images.map((image, i) => viewerItem(image, i + 1))
  const index = images.findIndex((i) => i.task.taskId === taskId)
  if (index < 0) return null
  return (
    <Viewer
      items={items}
      index={index}
      onIndexChange={(i) => {
        const next = images[i]
        if (next) onNavigate(next.task.taskId)
      }}
      onClose={onClose}
    />
  )
}
