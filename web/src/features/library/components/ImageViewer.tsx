import { ImageViewer as Viewer, type ViewerItem } from '@/components/viewer/ImageViewer'
import { formatWhen, KIND_LABELS, type LibraryTile } from '../generations'

/** A finished image of My Images as the viewer shows it: generated and edited, with its input. */
function viewerItem(tile: LibraryTile, number: number): ViewerItem {
  const { generation, image } = tile
  const output = image.outputs[0]
  const edited = image.edited ?? null
  return {
    id: image.taskId,
    title: `${KIND_LABELS[generation.service]} · ${formatWhen(generation.createdAt)}`,
    versions: [
      ...(output
        ? [{ label: 'Generated', url: output.url, alt: `Generated image ${number}, full size`, credentials: image.contentCredentials }]
        : []),
      ...(edited
        ? [{ label: 'Edited', url: edited.url, alt: `Edited image ${number}, full size`, credentials: image.editedCredentials }]
        : []),
    ],
    inputUrl: image.inputThumbnailUrl || null,
    downloads: [
      ...(output
        ? [{ url: output.url, storageKey: output.key, fileBaseName: `metamodel-${image.taskId}`, label: 'Download original', text: 'Download original' }]
        : []),
      ...(edited
        ? [{ url: edited.url, storageKey: edited.key, fileBaseName: `metamodel-${image.taskId}-edited`, label: 'Download edited version', text: 'Download edited' }]
        : []),
    ],
  }
}

interface ImageViewerProps {
  /** The finished images of the page, in its order: ← and → walk through them. */
  tiles: readonly LibraryTile[]
  /** The id of the image shown. */
  imageId: string
  onNavigate: (imageId: string) => void
  onClose: () => void
}

/** My Images' full-size viewer over the page's finished images. */
export function ImageViewer({ tiles, imageId, onNavigate, onClose }: ImageViewerProps) {
  const items = tiles.map((tile, i) => viewerItem(tile, i + 1))
  const index = tiles.findIndex((tile) => tile.image.taskId === imageId)
  if (index < 0) return null
  return (
    <Viewer
      items={items}
      index={index}
      onIndexChange={(i) => {
        const next = tiles[i]
        if (next) onNavigate(next.image.taskId)
      }}
      onClose={onClose}
    />
  )
}
