import { useAtomValue } from 'jotai'
import { useId, useRef, useState, type DragEvent } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { IconArrowRight, IconUpload } from '@/components/ui/icons'
import { ACCEPTED_IMAGE_TYPES } from '@/config'
import { FlowShell, FlowStatus } from '@/features/create/FlowShell'
import { formatBytes } from '@/lib/format'
import { uploadLimits, useSiteConfig } from '@/lib/siteConfig'
import { stepsFlowAtom, usableFiles } from '@/features/create/store'
import { readiness } from '@/features/create/fit'
import { addLocalFiles } from '../stores/uploads'
import { SampleList } from './SampleList'
import { UploadItem } from './UploadItem'
import styles from './UploadPage.module.css'

export function UploadPage() {
  const flow = useAtomValue(stepsFlowAtom)
  const navigate = useNavigate()
  const inputRef = useRef<HTMLInputElement>(null)
  const [dragging, setDragging] = useState(false)
  const hintId = useId()
  // Re-renders when the server's limits arrive; uploadLimits() then reads them.
  useSiteConfig()
  const maxBytes = uploadLimits().maxBytes

  const { files, isAllImagesUploaded } = flow.stepUploadImages
  const pending = files.filter((f) => f.status === 'uploading' || f.status === 'processing').length
  const failed = files.filter((f) => f.status === 'error').length
  const ready = usableFiles(files).length

  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setDragging(false)
    if (e.dataTransfer.files.length) addLocalFiles(Array.from(e.dataTransfer.files))
  }

  let status = 'Add at least one image to continue.'
  if (pending) status = `Uploading ${pending} image${pending === 1 ? '' : 's'}…`
  // Counted per service when a service cannot use them all (a group photo for a model swap).
  else if (ready) status = `${readiness(files)}${failed ? `; ${failed} failed (they will be skipped)` : ''}.`

  return (
    <FlowShell
      step={0}
      title="Upload your images"
      subtitle="Photos of a garment worn by a person work best: one person, facing the camera, evenly lit."
      footer={
        <>
          <FlowStatus testId="upload-status">
            {status}
          </FlowStatus>
          <button
            type="button"
            className="btn btn--primary"
            disabled={!isAllImagesUploaded}
            onClick={() => navigate('/select-model')}
            data-testid="next-button"
          >
            Next: select model <IconArrowRight size={18} />
          </button>
        </>
      }
    >
      <div
        className={dragging ? `${styles.dropzone} ${styles.dropzoneActive}` : styles.dropzone}
        onDragOver={(e) => {
          e.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        <span className={styles.dropzoneIcon} aria-hidden="true">
          <IconUpload size={28} />
        </span>
        <p className={styles.dropzoneTitle}>Drag and drop images here</p>
        <p className={styles.dropzoneHint} id={hintId}>
          JPG, PNG or WebP, up to {formatBytes(maxBytes)} each. You can add several at once.
        </p>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => inputRef.current?.click()}
          aria-describedby={hintId}
          data-testid="upload-choose"
        >
          Choose files
        </button>
        {/* Only the button above opens it: out of the tab order and of the accessibility tree,
            so keyboard and screen-reader users meet one control, not an invisible second. */}
        <input
          ref={inputRef}
          className="visually-hidden"
          type="file"
          multiple
          accept={ACCEPTED_IMAGE_TYPES.join(',')}
          tabIndex={-1}
          aria-hidden="true"
          data-testid="upload-input"
          onChange={(e) => {
            if (e.target.files?.length) addLocalFiles(Array.from(e.target.files))
            e.target.value = '' // allow picking the same file again after removing it
          }}
        />
      </div>

      {files.length > 0 && (
        <section aria-labelledby="uploads-heading" className="section">
          <h2 id="uploads-heading" className="section__title">
            Your images
          </h2>
          <ul className={styles.uploadGrid} data-testid="upload-list">
            {files.map((file) => (
              <UploadItem key={file._id} file={file} />
            ))}
          </ul>
          {failed > 0 && !pending && ready === 0 && (
            <Alert tone="error" title="None of the images could be used">
              Remove them and try different photos.
            </Alert>
          )}
        </section>
      )}

      <SampleList />
    </FlowShell>
  )
}
