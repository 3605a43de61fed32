import { useAtomValue } from 'jotai'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { Spinner } from '@/components/ui/Spinner'
import { IconAlert, IconImages, IconTrash } from '@/components/ui/icons'
import { localPreviewAtom, uploadProgressAtom, type FlowFile } from '@/features/create/store'
import { formatBytes } from '@/lib/format'
import { removeUpload } from '../stores/uploads'
import { describePhoto, kindVerdicts } from '../analysis'
import type { PhotoAnalysis } from '@/types/api'
import styles from './UploadItem.module.css'

const STATUS_CLASS: Record<FlowFile['status'], string | undefined> = {
  uploading: '',
  processing: '',
  done: styles.itemDone,
  error: styles.itemError,
}

export function UploadItem({ file }: { file: FlowFile }) {
  const progress = useAtomValue(uploadProgressAtom)[file._id] ?? 0
  const preview = useAtomValue(localPreviewAtom)[file._id]
  const done = file.status === 'done'
  const src = done ? file.thumbnailUrl || file.url : preview

  let caption: string
  switch (file.status) {
    case 'uploading':
      caption = `Uploading… ${Math.round(progress * 100)}%`
      break
    case 'processing':
      caption = 'Checking image…'
      break
    case 'done':
      caption = file.source === 'sample' ? 'Sample image' : file.size ? formatBytes(file.size) : 'Uploaded'
      break
    case 'error':
      caption = 'Failed'
      break
  }

  return (
    <li className={`${styles.item} ${STATUS_CLASS[file.status] ?? ''}`} data-testid="upload-item" data-status={file.status}>
      <div className={styles.media}>
        {src ? (
          <img
            src={src}
            alt={done ? `Thumbnail of ${file.name}` : ''}
            data-testid={done ? 'upload-thumbnail' : undefined}
            className={done ? '' : styles.preview}
            // Local previews of files the browser cannot decode would show a broken-image icon.
            onError={(e) => {
              e.currentTarget.style.visibility = 'hidden'
            }}
          />
        ) : (
          <span className={styles.placeholder} aria-hidden="true">
            {file.status === 'error' ? <IconAlert size={28} /> : <IconImages size={28} />}
          </span>
        )}
        {file.status === 'processing' && (
          <span className={styles.overlay}>
            <Spinner label={`Checking ${file.name}`} />
          </span>
        )}
      </div>
      <div className={styles.info}>
        <p className={styles.name} title={file.name}>
          {file.name}
        </p>
        <p className={styles.caption}>{caption}</p>
        {file.status === 'uploading' && (
          <ProgressBar value={progress * 100} label={`Upload progress for ${file.name}`} testId="upload-progress" />
        )}
        {done && file.analysis && <PhotoVerdicts analysis={file.analysis} />}
        {file.status === 'error' && file.error && (
          <p className={styles.error} role="alert" data-testid="upload-error">
            {file.error}
          </p>
        )}
      </div>
      <button
        type="button"
        className={`icon-btn icon-btn--small ${styles.remove}`}
        aria-label={`Remove ${file.name}`}
        title="Remove"
        onClick={() => removeUpload(file._id)}
        data-testid="upload-remove"
      >
        <IconTrash size={16} />
      </button>
    </li>
  )
}

/** What the server found in the photo, and what it can become (or why not). */
function PhotoVerdicts({ analysis }: { analysis: PhotoAnalysis }) {
  return (
    <div className={styles.analysis} data-testid="upload-analysis">
      <p>{describePhoto(analysis)}</p>
      <ul className={styles.verdicts}>
        {kindVerdicts(analysis).map((v) => (
          <li key={v.kind} data-service={v.kind} data-ok={v.ok} className={v.ok ? styles.verdictOk : styles.verdictNo}>
            <span className={styles.verdictLabel}>{v.label}:</span> {v.ok ? 'can be used' : (v.reason ?? 'not possible')}
          </li>
        ))}
      </ul>
    </div>
  )
}
