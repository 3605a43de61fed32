import { useAtomValue } from 'jotai'
import { useNavigate } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { DropZone } from '@/components/ui/DropZone'
import { IconArrowRight } from '@/components/ui/icons'
import { ACCEPTED_IMAGE_TYPES } from '@/config'
import { FlowShell, FlowStatus } from '@/features/create/FlowShell'
import { formatBytes } from '@/lib/format'
import { uploadLimits, useSiteConfig } from '@/api/siteConfig'
import { stepsFlowAtom, usableFiles } from '@/features/create/store'
import { readiness } from '@/features/create/fit'
import { addLocalFiles } from '../stores/uploads'
import { SampleList } from './SampleList'
import { UploadItem } from './UploadItem'
import styles from './UploadPage.module.css'

export function UploadPage() {
  const flow = useAtomValue(stepsFlowAtom)
  const navigate = useNavigate()
  // Re-renders when the server's limits arrive; uploadLimits() then reads them.
  useSiteConfig()
  const maxBytes = uploadLimits().maxBytes

  const { files, isAllImagesUploaded } = flow.stepUploadImages
  const pending = files.filter((f) => f.status === 'uploading' || f.status === 'processing').length
  const failed = files.filter((f) => f.status === 'error').length
  const ready = usableFiles(files).length

  let status = 'Add at least one image to continue.'
  if (pending) status = `Uploading ${pending} image${pending === 1 ? '' : 's'}…`
  // Counted per kind when a kind cannot use them all (a group photo for a model swap).
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
      <DropZone
        title="Drag and drop images here"
        hint={`JPG, PNG or WebP, up to ${formatBytes(maxBytes)} each. You can add several at once.`}
        chooseLabel="Choose files"
        accept={ACCEPTED_IMAGE_TYPES}
        multiple
        onFiles={addLocalFiles}
        testId="dropzone"
        chooseTestId="upload-choose"
        inputTestId="upload-input"
      />

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
