import { Alert } from '@/components/ui/Alert'
import { Dialog } from '@/components/ui/Dialog'
import { Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { pluralize } from '@/lib/format'
import { toast } from '@/lib/toast'
import type { Generation } from '@/types/api'
import { useDeleteGeneration } from '../api/deleteGeneration'
import styles from '../library.module.css'

/** Asks before deleting a generation (all its images); the list refreshes after. */
export function DeleteDialog({ generation, onClose, onDeleted }: { generation: Generation; onClose: () => void; onDeleted: () => void }) {
  const remove = useDeleteGeneration()
  const count = generation.tasks.length
  const confirm = () =>
    remove.mutate(generation.serviceId, {
      onSuccess: () => {
        toast.success(count > 1 ? 'The generation and its images were deleted.' : 'The image was deleted.')
        onDeleted()
      },
    })

  return (
    <Dialog
      title={count > 1 ? 'Delete this generation?' : 'Delete this image?'}
      titleClassName={styles.libDialogTitle}
     
      onClose={onClose}
      testId="delete-dialog"
    >
      <p className="muted">
        {count > 1
          ? `This generation has ${pluralize(count, 'image')}; all of them will be removed, with their inputs.`
          : 'The image and its input will be removed.'}{' '}
        This cannot be undone. Credits already spent are not returned.
      </p>
      {remove.isError && <Alert tone="error">{errorMessage(remove.error)}</Alert>}
      <div className={styles.libDialogActions}>
        <button type="button" className="btn btn--ghost" onClick={onClose} data-autofocus>
          Cancel
        </button>
        <button type="button" className={`btn ${styles.libBtnDanger}`} onClick={confirm} disabled={remove.isPending} data-testid="delete-confirm">
          {remove.isPending && <Spinner label="Deleting" />}
          Delete
        </button>
      </div>
    </Dialog>
  )
}
