import { useEffect, useRef, useState } from 'react'
import { Spinner } from '@/components/ui/Spinner'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { IconDownload } from '@/components/ui/icons'
import { errorMessage, isAbortError } from '@/lib/api'
import { saveBlob } from '@/lib/download'
import { formatBytes } from '@/lib/format'
import { downloadZip } from '@/api/downloadZip'
import { zipPercent, type ZipProgress } from '@/lib/zipDownload'

interface ZipDownloadButtonProps {
  /** The ids of the images to put in the archive. */
  imageIds: string[]
  /** The button's text, e.g. "Download selected (3)". */
  label: string
  variant?: 'primary' | 'secondary'
  testId?: string
}

/** Downloads several images as one ZIP streamed by the server, with a progress bar. */
export function ZipDownloadButton({ imageIds, label, variant = 'primary', testId = 'zip-download' }: ZipDownloadButtonProps) {
  const [progress, setProgress] = useState<ZipProgress | null>(null)
  const [error, setError] = useState<string | null>(null)
  const controller = useRef<AbortController | null>(null)

  // Leaving the page stops the download.
  useEffect(() => () => controller.current?.abort(), [])

  const busy = progress !== null
  const start = async () => {
    if (busy || imageIds.length === 0) return
    const abort = new AbortController()
    controller.current = abort
    setError(null)
    setProgress({ received: 0, total: null })
    try {
      const zip = await downloadZip(imageIds, setProgress, abort.signal)
      saveBlob(zip.blob, zip.fileName)
    } catch (err) {
      if (!isAbortError(err)) setError(errorMessage(err))
    } finally {
      if (controller.current === abort) controller.current = null
      if (!abort.signal.aborted) setProgress(null)
    }
  }

  const pct = progress ? zipPercent(progress) : null
  return (
    <div className="download zip-download" data-testid={`${testId}-area`}>
      <button
        type="button"
        className={`btn btn--${variant}`}
        onClick={() => void start()}
        disabled={busy || imageIds.length === 0}
        data-testid={testId}
      >
        {busy ? <Spinner label="Preparing the ZIP" /> : <IconDownload size={18} />}
        {label}
      </button>
      {progress && (
        <div aria-live="polite">
          <ProgressBar value={pct ?? 0} label="ZIP download progress" testId="zip-progress" />
          <span className="muted" style={{ fontSize: 13 }} data-testid="zip-progress-text">
            {pct === null
              ? `${formatBytes(progress.received)} received`
              : `${Math.round(pct)}% · ${formatBytes(progress.received)} of ${formatBytes(progress.total ?? 0)}`}
          </span>
          <button
            type="button"
            className="link-btn"
            style={{ marginLeft: 10, fontSize: 13 }}
            onClick={() => {
              controller.current?.abort()
              setProgress(null)
            }}
          >
            Cancel
          </button>
        </div>
      )}
      {error && (
        <p className="download__error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}
