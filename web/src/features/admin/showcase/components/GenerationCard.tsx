import type { GenerationImage } from '@/types/api'
import type { AdminGeneration } from '../api/findGenerations'
import { formatDateTime, KIND_LABELS, STATUS_LABELS } from '../labels'
import { AttachEdit } from './AttachEdit'
import styles from '../admin-showcase.module.css'

/** One generation found by the lookup: who, what, when, its workflow, and each of its images. */
export function GenerationCard({ found }: { found: AdminGeneration }) {
  const { generation, ownerEmail, temporalUrl, traceId } = found
  const deletedAt = found.deletedAt ?? null
  return (
    <article className="card" data-testid={`generation-${generation.serviceId}`}>
      <header className={styles.adminGenerationHead}>
        <div className={styles.adminGenerationTitle}>
          <h3>{KIND_LABELS[generation.service]}</h3>
          {deletedAt ? (
            <span className="status-pill status-pill--failed" data-testid="generation-deleted">
              Deleted
            </span>
          ) : (
            <span className={`status-pill status-pill--${generation.status}`}>{STATUS_LABELS[generation.status]}</span>
          )}
        </div>
        <a
          href={temporalUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="btn btn--ghost btn--small"
          data-testid="temporal-link"
        >
          Open in Temporal
        </a>
      </header>
      <dl className={styles.adminGenerationFacts}>
        <div>
          <dt>Service id</dt>
          <dd>
            <code>{generation.serviceId}</code>
          </dd>
        </div>
        <div>
          <dt>Owner</dt>
          <dd>{ownerEmail ?? 'Guest (no account)'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatDateTime(generation.createdAt)}</dd>
        </div>
        <div>
          <dt>Credits</dt>
          <dd>{generation.credits}</dd>
        </div>
        {traceId && (
          <div>
            <dt>Trace id</dt>
            <dd>
              <code data-testid="trace-id">{traceId}</code>
            </dd>
          </div>
        )}
      </dl>
      {generation.error && <p className="field-error">{generation.error}</p>}
      {deletedAt ? (
        // Its images are gone from storage: no thumbnails to break, nothing to act on.
        <p className="muted" data-testid="generation-deleted-note">
          Deleted by its owner ({ownerEmail ?? 'a guest'}) on {formatDateTime(deletedAt)}. Its{' '}
          {generation.tasks.length === 1 ? 'image was' : `${generation.tasks.length} images were`} removed; the
          ledger keeps its charge.
        </p>
      ) : (
        <ul className={styles.adminImages}>
          {generation.tasks.map((image, index) => (
            <ImageRow key={image.taskId} image={image} number={index + 1} />
          ))}
        </ul>
      )}
    </article>
  )
}

function ImageRow({ image, number }: { image: GenerationImage; number: number }) {
  const output = image.outputs[0]
  return (
    <li className={styles.adminImage} data-testid={`admin-task-${image.taskId}`}>
      <div className={styles.adminImageFigures}>
        <figure className={styles.adminImageFigure}>
          <img src={image.inputThumbnailUrl} alt={`Image ${number}: input`} loading="lazy" />
          <figcaption>Input</figcaption>
        </figure>
        <figure className={styles.adminImageFigure}>
          {output ? (
            <a href={output.url} target="_blank" rel="noopener noreferrer">
              <img src={output.thumbnailUrl} alt={`Image ${number}: generated`} loading="lazy" />
            </a>
          ) : (
            <span className={styles.adminImageNone}>{STATUS_LABELS[image.status]}</span>
          )}
          <figcaption>Generated</figcaption>
        </figure>
        {image.edited && (
          <figure className={`${styles.adminImageFigure} ${styles.adminImageFigureEdited}`} data-testid="admin-task-edited">
            <a href={image.edited.url} target="_blank" rel="noopener noreferrer">
              <img src={image.edited.thumbnailUrl} alt={`Image ${number}: edited`} loading="lazy" />
            </a>
            <figcaption>
              <span className={styles.editedBadge}>Edited</span>
            </figcaption>
          </figure>
        )}
      </div>
      <div className={styles.adminImageSide}>
        <p className={styles.adminImageMeta}>
          Image {number}
          {image.shared && <span className="status-pill">Shared</span>}
        </p>
        {image.status === 'completed' && output ? (
          <AttachEdit imageId={image.taskId} hasEdit={Boolean(image.edited)} />
        ) : (
          <p className={`muted ${styles.adminImageNote}`}>{image.error ?? 'No generated image to edit yet.'}</p>
        )}
      </div>
    </li>
  )
}
