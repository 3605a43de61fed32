import { useState } from 'react'
import { Spinner } from '@/components/ui/Spinner'
import { IconDownload } from '@/components/ui/icons'
import { errorMessage } from '@/lib/api'
import { downloadFile } from '@/api/external'

interface DownloadButtonProps {
  url: string
  storageKey?: string
  fileBaseName: string
  /** Accessible name, e.g. "Download image 1". */
  label: string
  /** The visible text (default "Download"). */
  text?: string
}

export function DownloadButton({ url, storageKey, fileBaseName, label, text = 'Download' }: DownloadButtonProps) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const onClick = async () => {
    setBusy(true)
    setError(null)
    try {
      await downloadFile(url, fileBaseName, storageKey)
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="download">
      <button
        type="button"
        className="btn btn--secondary btn--small"
        onClick={onClick}
        disabled={busy}
        aria-label={label}
        data-testid="download-button"
      >
        {busy ? <Spinner label="Downloading" /> : <IconDownload size={16} />}
        {text}
      </button>
      {error && (
        <p className="download__error" role="alert" data-testid="download-error">
          {error}
        </p>
      )}
    </div>
  )
}
