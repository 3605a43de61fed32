import { DownloadButton } from '@/components/DownloadButton'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { IconTrash } from '@/components/ui/icons'
import { failedImageNote } from '@/lib/failures'
import type { GenerationStatus } from '@/types/api'
import { downloadable, formatWhen, generationActive, isActive, KIND_LABELS, STATUS_LABELS, type LibraryImage } from '../generations'
import { FeedbackControl } from './FeedbackControl'
import { InputThumb } from './InputThumb'
import { ShareToggle } from './ShareToggle'
import styles from '../library.module.css'

/** The status badge's colour; a completed image shows none. */
const STATUS_BADGES: Record<GenerationStatus, string | undefined> = {
  queued: styles.libBadgeQueued,
  running: styles.libBadgeRunning,
  completed: undefined,
  failed: styles.libBadgeFailed,
}
interface ImageTileProps {
  image: LibraryImage
  /** Its number on the page, for names ("image 3"). */
  number: number
  selected: boolean
  onToggleSelect: () => void
  onOpen: () => void
  onDelete: () => void
}

/** One image of a generation: the output with its input beside it, and what can be done with it. */
export function ImageTile({ image, number, selected, onToggleSelect, onOpen, onDelete }: ImageTileProps) {
  const { generation, task } = image
  const output = task.outputs[0]
  const ready = downloadable(task) && output
  const edited = ready ? task.edited : null
  const active = isActive(task.status)
  const name = `image ${number}`
  const pct = Math.max(0, Math.min(100, task.progress || 0))

  return (
    <li
      className={`${styles.libTile}${task.status === 'failed' ? ` ${styles.libTileFailed}` : ''}${selected ? ` ${styles.libTileSelected}` : ''}`}
      data-testid="library-image"
      data-task-id={task.taskId}
      data-service-id={generation.serviceId}
      data-status={task.status}
    >
      <div className={styles.libTileMedia}>
        {ready ? (
          <button type="button" className={styles.libTileOpen} onClick={onOpen} aria-label={`Open ${name} full size`} data-testid="library-open">
            <img src={output.thumbnailUrl || output.url} alt={`Generated ${name}`} loading="lazy" data-testid="library-output" />
          </button>
        ) : (
          <span className={styles.libTilePlaceholder} aria-hidden="true">
            <InputThumb url={task.inputThumbnailUrl} alt="" />
          </span>
        )}
        <figure className={styles.libTileInput} data-testid="tile-input">
          <InputThumb url={task.inputThumbnailUrl} alt={`Input of ${name}`} />
          <figcaption>Input</figcaption>
        </figure>
        {ready && (
          <label className={styles.libTileSelect}>
            <input type="checkbox" checked={selected} onChange={onToggleSelect} aria-label={`Select ${name}`} data-testid="library-select" />
          </label>
        )}
        <div className={styles.libTileBadges}>
          {task.status !== 'completed' && (
            <span className={`${styles.libBadge} ${STATUS_BADGES[task.status] ?? ''}`} data-testid="library-status">
              {STATUS_LABELS[task.status]}
            </span>
          )}
          {edited && (
            <span className={`${styles.libBadge} ${styles.libBadgeEdited}`} data-testid="edited-badge">
              Edited
            </span>
          )}
          {task.sourceTaskId && (
            <span className={`${styles.libBadge} ${styles.libBadgeVersion}`} data-testid="version-badge" title="Re-rendered with a new placement">
              New placement
            </span>
          )}
        </div>
      </div>

      <div className={styles.libTileBody}>
        <p className={styles.libTileMeta}>
          <strong>{KIND_LABELS[generation.service]}</strong>
          <span className="muted">{formatWhen(generation.createdAt)}</span>
        </p>

        {active && <ProgressBar value={task.status === 'queued' ? 0 : pct} label={`Progress of ${name}`} />}
        {task.status === 'failed' && (
          <>
            <p className="task__error" role="note" data-testid="library-failure">
              {task.error || generation.error || 'The image could not be generated.'}
            </p>
            <p className={`muted ${styles.libTileNote}`} data-testid="library-failure-credits">
              {failedImageNote(task, generation.tasks, generation.credits)}
            </p>
          </>
        )}

        {ready && task.note && (
          <p className={`muted ${styles.libTileNote}`} data-testid="library-note">
            {task.note}
          </p>
        )}

        {ready && (
          <div className={styles.libTileDownloads}>
            <DownloadButton
              url={output.url}
              storageKey={output.key}
              fileBaseName={`metamodel-${task.taskId}`}
              label={`Download the original of ${name}`}
              text="Original"
            />
            {edited && (
              <DownloadButton
                url={edited.url}
                storageKey={edited.key}
                fileBaseName={`metamodel-${task.taskId}-edited`}
                label={`Download the edited version of ${name}`}
                text="Edited"
              />
            )}
          </div>
        )}
        {ready && <FeedbackControl taskId={task.taskId} rating={task.rating ?? null} comment={task.comment} imageLabel={name} />}

        <div className={styles.libTileFooter}>
          {ready ? <ShareToggle taskId={task.taskId} shared={task.shared} /> : <span />}
          <button
            type="button"
            className={`icon-btn icon-btn--small ${styles.libTileDelete}`}
            onClick={onDelete}
            disabled={generationActive(generation)}
            aria-label={`Delete ${name}`}
            title={generationActive(generation) ? 'You can delete it when it has finished' : 'Delete this image'}
            data-testid="library-delete"
          >
            <IconTrash size={18} />
          </button>
        </div>
      </div>
    </li>
  )
}
