import { useId } from 'react'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import { useAttachEdit } from '../api/attachEdit'
import styles from '../admin-showcase.module.css'

const ACCEPT = 'image/jpeg,image/png,image/webp'

/** "Attach edited image": uploads the chosen file at once; the server's refusal is shown here. */
export function AttachEdit({ imageId, hasEdit }: { imageId: string; hasEdit: boolean }) {
  const attach = useAttachEdit()
  const errorId = useId()

  const onChange = (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    // The same file can be chosen again after a refusal.
    event.target.value = ''
    if (!file) return
    attach.mutate(
      { imageId, file },
      { onSuccess: () => toast.success('Edited image attached. The owner was told by email.') },
    )
  }

  return (
    <div className={styles.attachEdit} data-testid="attach-edit">
      <label className={`btn btn--secondary btn--small ${styles.attachEditButton}${attach.isPending ? ` ${styles.isBusy}` : ''}`}>
        <input
          type="file"
          accept={ACCEPT}
          className="visually-hidden"
          onChange={onChange}
          disabled={attach.isPending}
          aria-describedby={attach.isError ? errorId : undefined}
          data-testid="attach-edit-input"
        />
        {attach.isPending ? 'Uploading…' : hasEdit ? 'Replace edited image' : 'Attach edited image'}
      </label>
      {attach.isError && (
        <p id={errorId} className="field-error" role="alert" data-testid="attach-edit-error">
          {errorMessage(attach.error)}
        </p>
      )}
    </div>
  )
}
