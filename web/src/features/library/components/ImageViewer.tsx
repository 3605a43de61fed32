import { useState } from 'react'
import { DownloadButton } from '@/components/DownloadButton'
import { Dialog } from '@/components/ui/Dialog'
import { formatWhen, SERVICE_LABELS, type LibraryImage } from '../generations'
import styles from '../library.module.css'

/** The full-size image (or its edited version) with the input beside it. Escape closes. */
export function ImageViewer({ image, onClose }: { image: LibraryImage; onClose: () => void }) {
  const { generation, task } = image
  const output = task.outputs[0]
  const edited = task.edited ?? null
  const [showEdited, setShowEdited] = useState(false)
  if (!output) return null
  const shown = showEdited && edited ? edited : output

  return (
    <Dialog
      title={`${SERVICE_LABELS[generation.service]} · ${formatWhen(generation.createdAt)}`}
      titleClassName={styles.libDialogTitle}
      className={styles.libDialogWide}
      onClose={onClose}
      testId="image-viewer"
    >
      {edited && (
        <div className={styles.libViewerSwitch} role="group" aria-label="Version">
          <button type="button" className={`chip${showEdited ? '' : ' chip--active'}`} aria-pressed={!showEdited} onClick={() => setShowEdited(false)}>
            Generated
          </button>
          <button type="button" className={`chip${showEdited ? ' chip--active' : ''}`} aria-pressed={showEdited} onClick={() => setShowEdited(true)}>
            Edited
          </button>
        </div>
      )}
      <div className={styles.libViewer}>
        <figure className={styles.libViewerMain}>
          <img src={shown.url} alt={showEdited ? 'Edited image, full size' : 'Generated image, full size'} data-testid="viewer-image" />
        </figure>
        <figure className={styles.libViewerInput}>
          <img src={task.inputThumbnailUrl} alt="Input image" />
          <figcaption className="muted">Input</figcaption>
        </figure>
      </div>
      <div className={styles.libViewerActions}>
        <DownloadButton url={output.url} storageKey={output.key} fileBaseName={`metamodel-${task.taskId}`} label="Download the original" text="Download original" />
        {edited && (
          <DownloadButton url={edited.url} storageKey={edited.key} fileBaseName={`metamodel-${task.taskId}-edited`} label="Download the edited version" text="Download edited" />
        )}
      </div>
    </Dialog>
  )
}
