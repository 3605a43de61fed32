import { useState } from 'react'
import { Link } from 'react-router'
import { CredentialsPanel } from '@/components/credentials/CredentialsPanel'
import { Alert } from '@/components/ui/Alert'
import { DropZone } from '@/components/ui/DropZone'
import { Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import type { ProvenanceCheck } from '@/types/api'
import { useCheckImage } from '../api/checkImage'
import { CHECKED_TYPES, VERDICTS } from '../verdicts'
import styles from '../provenance.module.css'

function Result({ check }: { check: ProvenanceCheck }) {
  const look = VERDICTS[check.verdict]
  return (
    <div className={styles.result} data-testid="verify-result" data-verdict={check.verdict}>
      <Alert tone={look.tone} title={look.title} testId="verify-verdict">
        <p data-testid="verify-message">{check.message}</p>
      </Alert>
      {(check.generationId || check.taskId) && (
        <dl className={styles.ids} data-testid="verify-ids">
          {check.generationId && (
            <>
              <dt>Generation</dt>
              <dd>
                <code data-testid="verify-generation-id">{check.generationId}</code>
              </dd>
            </>
          )}
          {check.taskId && (
            <>
              <dt>Image</dt>
              <dd>
                <code data-testid="verify-task-id">{check.taskId}</code>
              </dd>
            </>
          )}
          {check.testMode && (
            <>
              <dt>Mode</dt>
              <dd>Test image</dd>
            </>
          )}
        </dl>
      )}
      <CredentialsPanel credentials={check.credentials} defaultOpen verifyLink={false} testId="verify-credentials" />
    </div>
  )
}

/**
 * /verify: anyone drops or picks an image and learns whether it carries MetaModel's valid
 * Content Credentials, which generation made it, and whether its pixels changed since.
 */
export function VerifyPage() {
  const [fileName, setFileName] = useState<string | null>(null)
  const check = useCheckImage()

  const checkFile = (file: File | undefined) => {
    if (!file) return
    setFileName(file.name)
    check.mutate(file)
  }

  return (
    <div className="page">
      <header className="page-header">
        <h1>Check an image</h1>
        <p className="page-header__sub">
          Every image MetaModel makes carries signed Content Credentials (C2PA) that say it was made with AI. Check a
          file to see whether it still carries ours, which generation made it, and whether it changed since.
        </p>
      </header>

      <DropZone
        title="Drop an image here"
        hint="A JPEG or PNG file as you downloaded it. It is only read for the check, never kept."
        chooseLabel="Choose an image"
        accept={CHECKED_TYPES}
        disabled={check.isPending}
        onFiles={(files) => checkFile(files[0])}
        testId="verify-dropzone"
        chooseTestId="verify-choose"
        inputTestId="verify-input"
      />

      <section className={styles.answer} aria-live="polite" aria-label="Result of the check">
        {check.isPending && (
          <p className={styles.pending} data-testid="verify-pending">
            <Spinner label="Checking" /> Checking {fileName}…
          </p>
        )}
        {check.isError && (
          <Alert tone="error" title={`${fileName ?? 'The image'} could not be checked`} testId="verify-error">
            {errorMessage(check.error)}
          </Alert>
        )}
        {check.isSuccess && (
          <>
            <p className={styles.fileName}>
              Checked: <span data-testid="verify-file-name">{fileName}</span>
            </p>
            <Result check={check.data} />
          </>
        )}
      </section>

      <p className={styles.more}>
        Other tools read the same credentials: <code>c2patool</code> from the{' '}
        <a href="https://github.com/contentauth/c2pa-rs">C2PA project</a>, or the Content Credentials website at{' '}
        <a href="https://contentcredentials.org/verify">contentcredentials.org/verify</a>. Re-saving, cropping or a screenshot
        removes them. How it works: the Content Credentials section of the{' '}
        <Link to="/docs/api">API documentation</Link>.
      </p>
    </div>
  )
}
