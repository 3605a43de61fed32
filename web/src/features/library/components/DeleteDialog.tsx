import { useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Dialog } from '@/components/ui/Dialog'
import { Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { pluralize } from '@/lib/format'
import { toast } from '@/lib/toast'
import { useDeleteGeneration } from '../api/deleteGeneration'
import { useDeleteImage } from '../api/deleteImage'
import type { LibraryTile } from '../generations'
import styles from '../library.module.css'

interface DeleteDialogProps {
  tile: LibraryTile
  /** The image's name on the page ("image 3"). */
  name: string
  onClose: () => void
  /** The ids of the images that went (this one, or the whole generation's). */
  onDeleted: (imageIds: string[]) => void
}

/**
 * Asks before deleting, from the trash icon on one image: that image only. Deleting the whole
 * generation (all its images) is a second, named step, never what the icon does by itself.
 * The list refreshes after either.
 */
export function DeleteDialog({ tile, name, onClose, onDeleted }: DeleteDialogProps) {
  const { generation, image } = tile
  const [whole, setWhole] = useState(false)
  const removeImage = useDeleteImage()
  const removeGeneration = useDeleteGeneration()
  const count = generation.tasks.length
  const others = count - 1
  const pending = removeImage.isPending || removeGeneration.isPending
  const failure = whole ? removeGeneration.error : removeImage.error

  const deleteImage = () =>
    removeImage.mutate(
      { generationId: generation.serviceId, imageId: image.taskId },
      {
        onSuccess: () => {
          toast.success('The image was deleted.')
          onDeleted([image.taskId])
        },
      },
    )
  const deleteGeneration = () =>
    removeGeneration.mutate(generation.serviceId, {
      onSuccess: () => {
        toast.success(`The generation and its ${pluralize(count, 'image')} were deleted.`)
        onDeleted(generation.tasks.map((each) => each.taskId))
      },
    })

  return (
    <Dialog
      title={whole ? 'Delete the whole generation?' : `Delete ${name}?`}
      titleClassName={styles.libDialogTitle}
      onClose={onClose}
      testId="delete-dialog"
      data={{ 'data-scope': whole ? 'generation' : 'image' }}
    >
      <p className="muted" data-testid="delete-dialog-text">
        {whole
          ? `This generation has ${pluralize(count, 'image')}; all of them will be removed, with their inputs.`
          : others === 1
            ? 'Only this image and its input are removed; the other image of this generation stays.'
            : others > 1
              ? `Only this image and its input are removed; the other ${others} images of this generation stay.`
              : 'The image and its input will be removed.'}{' '}
        This cannot be undone. Credits already spent are not returned.
      </p>
      {failure && <Alert tone="error">{errorMessage(failure)}</Alert>}
      <div className={styles.libDialogActions}>
        {whole ? (
          <>
            <button type="button" className="btn btn--ghost" onClick={() => setWhole(false)} data-autofocus>
              Back
            </button>
            <button type="button" className={`btn ${styles.libBtnDanger}`} onClick={deleteGeneration} disabled={pending} data-testid="delete-generation-confirm">
              {removeGeneration.isPending && <Spinner label="Deleting" />}
              Delete {pluralize(count, 'image')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="btn btn--ghost" onClick={onClose} data-autofocus>
              Cancel
            </button>
            <button type="button" className={`btn ${styles.libBtnDanger}`} onClick={deleteImage} disabled={pending} data-testid="delete-confirm">
              {removeImage.isPending && <Spinner label="Deleting" />}
              Delete this image
            </button>
          </>
        )}
      </div>
      {!whole && others > 0 && (
        <p className={styles.libDialogAside}>
          <button type="button" className="link-btn" onClick={() => setWhole(true)} disabled={pending} data-testid="delete-whole-generation">
            Delete the whole generation ({pluralize(count, 'image')}) instead…
          </button>
        </p>
      )}
    </Dialog>
  )
}
