import { DownloadButton } from '@/components/DownloadButton'
import { CredentialsPanel } from '@/components/credentials/CredentialsPanel'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { IconAlert } from '@/components/ui/icons'
import type { FlowFile } from '@/features/create/store'
import type { GenerationImage } from '@/types/api'
import styles from './ImageCard.module.css'

const STATUS_TEXT: Record<GenerationImage['status'], string> = {
  queued: 'Waiting in queue',
  running: 'Generating',
  completed: 'Done',
  failed: 'Failed',
}

interface ImageCardProps {
  image: GenerationImage
  index: number
  input?: FlowFile
}

const STATUS_CLASS: Record<GenerationImage['status'], string | undefined> = {
  queued: styles.queued,
  running: styles.running,
  completed: '',
  failed: styles.failed,
}

export function ImageCard({ image, index, input }: ImageCardProps) {
  const n = index + 1
  const pct = image.status === 'completed' ? 100 : Math.max(0, Math.min(100, image.progress || 0))
  const output = image.outputs[0]
  // This tab's upload, else the server's thumbnail of the input (after a reload or a new flow).
  const inputThumbnail = input?.thumbnailUrl || image.inputThumbnailUrl

  return (
    <li className={`${styles.card} ${STATUS_CLASS[image.status] ?? ''}`} data-testid="task-card" data-status={image.status}>
      <div className={styles.media}>
        {image.status === 'completed' && output ? (
          <a href={output.url} target="_blank" rel="noreferrer" className={styles.resultLink}>
            <img
              src={output.thumbnailUrl || output.url}
              alt={`Generated image ${n}`}
              data-testid="result-image"
            />
          </a>
        ) : inputThumbnail ? (
          <img src={inputThumbnail} alt={`Input image ${n}`} className={styles.input} data-testid="task-input" />
        ) : (
          <span className={styles.placeholder} aria-hidden="true" />
        )}
        {image.status === 'failed' && (
          <span className={styles.badge} aria-hidden="true">
            <IconAlert size={20} />
          </span>
        )}
      </div>

      <div className={styles.info}>
        <p className={styles.title}>
          Image {n}
          <span className={`status-pill status-pill--${image.status}`}>{STATUS_TEXT[image.status]}</span>
        </p>

        {image.status !== 'completed' && image.status !== 'failed' && (
          <div className={styles.progress} data-testid="task-progress">
            <ProgressBar value={pct} label={`Progress of image ${n}`} />
            <span className={styles.pct}>{Math.round(pct)}%</span>
          </div>
        )}

        {image.status === 'failed' && (
          <p className="image__error" role="alert" data-testid="task-error">
            {image.error || 'The image could not be generated.'}
          </p>
        )}

        {image.status === 'completed' && image.note && (
          <p className="muted" data-testid="task-note">
            {image.note}
          </p>
        )}

        {image.status === 'completed' && image.outputs.length === 0 && (
          <p className="image__error">Finished, but no image was returned.</p>
        )}

        {image.status === 'completed' &&
          image.outputs.map((o, i) => (
            <DownloadButton
              key={o.key || o.url}
              url={o.url}
              storageKey={o.key}
              fileBaseName={`metamodel-${image.taskId}${image.outputs.length > 1 ? `-${i + 1}` : ''}`}
              label={`Download image ${n}${image.outputs.length > 1 ? `, variant ${i + 1}` : ''}`}
            />
          ))}

        {image.status === 'completed' && <CredentialsPanel credentials={image.contentCredentials} />}
      </div>
    </li>
  )
}
