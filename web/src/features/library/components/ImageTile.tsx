import { DownloadButton } from '@/components/DownloadButton'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { IconTrash } from '@/components/ui/icons'
import { failedImageNote } from '@/lib/failures'
import { downloadable, formatWhen, generationActive, isActive, SERVICE_LABELS, STATUS_LABELS, type LibraryImage } from '../generations'
import { FeedbackControl } from './FeedbackControl'
import { ShareToggle } from './ShareToggle'

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
      className={`lib-tile lib-tile--${task.status}${selected ? ' lib-tile--selected' : ''}`}
      data-testid="library-image"
      data-task-id={task.taskId}
      data-service-id={generation.serviceId}
      data-status={task.status}
    >
      <div className="lib-tile__media">
        {ready ? (
          <button type="button" className="lib-tile__open" onClick={onOpen} aria-label={`Open ${name} full size`} data-testid="library-open">
            <img src={output.thumbnailUrl || output.url} alt={`Generated ${name}`} loading="lazy" data-testid="library-output" />
          </button>
        ) : (
          <span className="lib-tile__placeholder" aria-hidden="true">
            {task.inputThumbnailUrl && <img src={task.inputThumbnailUrl} alt="" />}
          </span>
        )}
        <figure className="lib-tile__input" data-testid="tile-input">
          {task.inputThumbnailUrl ? <img src={task.inputThumbnailUrl} alt={`Input of ${name}`} loading="lazy" /> : null}
          <figcaption>Input</figcaption>
        </figure>
        {ready && (
          <label className="lib-tile__select">
            <input type="checkbox" checked={selected} onChange={onToggleSelect} aria-label={`Select ${name}`} data-testid="library-select" />
          </label>
        )}
        <div className="lib-tile__badges">
          {task.status !== 'completed' && (
            <span className={`lib-badge lib-badge--${task.status}`} data-testid="library-status">
              {STATUS_LABELS[task.status]}
            </span>
          )}
          {edited && (
            <span className="lib-badge lib-badge--edited" data-testid="edited-badge">
              Edited
            </span>
          )}
          {task.sourceTaskId && (
            <span className="lib-badge lib-badge--version" data-testid="version-badge" title="Re-rendered with a new placement">
              New placement
            </span>
          )}
        </div>
      </div>

      <div className="lib-tile__body">
        <p className="lib-tile__meta">
          <strong>{SERVICE_LABELS[generation.service]}</strong>
          <span className="muted">{formatWhen(generation.createdAt)}</span>
        </p>

        {active && <ProgressBar value={task.status === 'queued' ? 0 : pct} label={`Progress of ${name}`} />}
        {task.status === 'failed' && (
          <>
            <p className="task__error" role="note" data-testid="library-failure">
              {task.error || generation.error || 'The image could not be generated.'}
            </p>
            <p className="muted lib-tile__note" data-testid="library-failure-credits">
              {failedImageNote(task, generation.tasks, generation.credits)}
            </p>
          </>
        )}

        {ready && task.note && (
          <p className="muted lib-tile__note" data-testid="library-note">
            {task.note}
          </p>
        )}

        {ready && (
          <div className="lib-tile__downloads">
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

        <div className="lib-tile__footer">
          {ready ? <ShareToggle taskId={task.taskId} shared={task.shared} /> : <span />}
          <button
            type="button"
            className="icon-btn icon-btn--small lib-tile__delete"
            onClick={onDelete}
            disabled={generationActive(generation)}
            aria-label={`Delete the generation of ${name}`}
            title={generationActive(generation) ? 'You can delete it when it has finished' : 'Delete'}
            data-testid="library-delete"
          >
            <IconTrash size={18} />
          </button>
        </div>
      </div>
    </li>
  )
}
