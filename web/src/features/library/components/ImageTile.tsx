import { DownloadButton } from '@/components/DownloadButton'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { IconTrash } from '@/components/ui/icons'
import { failedImageNote } from '@/lib/failures'
import type { GenerationStatus } from '@/types/api'
import { downloadable, formatWhen, generationActive, isActive, KIND_LABELS, STATUS_LABELS, type LibraryTile } from '../generations'
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
  tile: LibraryTile
  /** Its number on the page, for names ("image 3"). */
  number: number
  selected: boolean
  onToggleSelect: () => void
  onOpen: () => void
  onDelete: () => void
}

/** One image of a generation: the output with its input beside it, and what can be done with it. */
export function ImageTile({ tile, number, selected, onToggleSelect, onOpen, onDelete }: ImageTileProps) {
  const { generation, image } = tile
  const output = image.outputs[0]
  const ready = downloadable(image) && output
  const edited = ready ? image.edited : null
  const active = isActive(image.status)
  const name = `image ${number}`
  const pct = Math.max(0, Math.min(100, image.progress || 0))

  return (
    <li
      className={`${styles.libTile}${image.status === 'failed' ? ` ${styles.libTileFailed}` : ''}${selected ? ` ${styles.libTileSelected}` : ''}`}
      data-testid="library-image"
      data-task-id={image.taskId}
      data-service-id={generation.serviceId}
      data-status={image.status}
    >
      <div className={styles.libTileMedia}>
        {ready ? (
          <button type="button" className={styles.libTileOpen} onClick={onOpen} aria-label={`Open ${name} full size`} data-testid="library-open">
            <img src={output.thumbnailUrl || output.url} alt={`Generated ${name}`} loading="lazy" data-testid="library-output" />
          </button>
        ) : (
          <span className={styles.libTilePlaceholder} aria-hidden="true">
            <InputThumb url={image.inputThumbnailUrl} alt="" />
          </span>
        )}
        <figure className={styles.libTileInput} data-testid="tile-input">
          <InputThumb url={image.inputThumbnailUrl} alt={`Input of ${name}`} />
          <figcaption>Input</figcaption>
        </figure>
        {ready && (
          <label className={styles.libTileSelect}>
            <input type="checkbox" checked={selected} onChange={onToggleSelect} aria-label={`Select ${name}`} data-testid="library-select" />
          </label>
        )}
        <div className={styles.libTileBadges}>
          {image.status !== 'completed' && (
            <span className={`${styles.libBadge} ${STATUS_BADGES[image.status] ?? ''}`} data-testid="library-status">
              {STATUS_LABELS[image.status]}
            </span>
          )}
          {edited && (
            <span className={`${styles.libBadge} ${styles.libBadgeEdited}`} data-testid="edited-badge">
              Edited
            </span>
          )}
          {image.sourceTaskId && (
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

        {active && <ProgressBar value={image.status === 'queued' ? 0 : pct} label={`Progress of ${name}`} />}
        {image.status === 'failed' && (
          <>
            <p className="image__error" role="note" data-testid="library-failure">
              {image.error || generation.error || 'The image could not be generated.'}
            </p>
            <p className={`muted ${styles.libTileNote}`} data-testid="library-failure-credits">
              {failedImageNote(image, generation.tasks, generation.credits)}
            </p>
          </>
        )}

        {ready && image.note && (
          <p className={`muted ${styles.libTileNote}`} data-testid="library-note">
            {image.note}
          </p>
        )}

        {ready && (
          <div className={styles.libTileDownloads}>
            <DownloadButton
              url={output.url}
              storageKey={output.key}
              fileBaseName={`metamodel-${image.taskId}`}
              label={`Download the original of ${name}`}
              text="Original"
            />
            {edited && (
              <DownloadButton
                url={edited.url}
                storageKey={edited.key}
                fileBaseName={`metamodel-${image.taskId}-edited`}
                label={`Download the edited version of ${name}`}
                text="Edited"
              />
            )}
          </div>
        )}
        {ready && <FeedbackControl imageId={image.taskId} rating={image.rating ?? null} comment={image.comment} imageLabel={name} />}

        <div className={styles.libTileFooter}>
          {ready ? <ShareToggle imageId={image.taskId} shared={image.shared} /> : <span />}
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
