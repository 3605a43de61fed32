import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { Link, useNavigate } from 'react-router'
import { DownloadButton } from '@/components/DownloadButton'
import { Alert } from '@/components/ui/Alert'
import { resetFlowAndUploads, stepsFlowAtom, updateJobAtom, type GeneratedJob } from '@/stores/stepsFlow'
import { useServices } from '../api/getService'
import { useJobPolling } from '../hooks/useJobPolling'
import { jobFinished } from '../jobs'

function JobResults({ job, index }: { job: GeneratedJob; index: number }) {
  const outputs = job.tasks.flatMap((t) => t.outputs.map((o, i) => ({ task: t, output: o, i })))
  const failed = job.tasks.filter((t) => t.status === 'failed')
  const when = new Date(job.createdAt)
  return (
    <section className="section" aria-labelledby={`job-${job.serviceId}`}>
      <div className="job__header">
        <h2 id={`job-${job.serviceId}`} className="section__title">
          Generation {index}
        </h2>
        <p className="muted">
          {[job.modelName && `Model: ${job.modelName}`, job.backgroundName && `Background: ${job.backgroundName}`]
            .filter(Boolean)
            .join(' · ')}
          {Number.isNaN(when.getTime()) ? '' : ` · ${when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`}
        </p>
      </div>
      {!jobFinished(job) && (
        <Alert tone="info" title="Still generating">
          <Link to="/generate">See progress</Link>
        </Alert>
      )}
      {outputs.length > 0 && (
        <ul className="output-grid">
          {outputs.map(({ task, output, i }, n) => (
            <li key={`${task.taskId}-${i}`} className="output">
              <a href={output.url} target="_blank" rel="noreferrer" className="output__media">
                <img src={output.thumbnailUrl || output.url} alt={`Generated image ${n + 1}`} data-testid="output-image" />
              </a>
              <DownloadButton
                url={output.url}
                storageKey={output.key}
                fileBaseName={`metamodel-${task.taskId}${i ? `-${i + 1}` : ''}`}
                label={`Download generated image ${n + 1}`}
              />
            </li>
          ))}
        </ul>
      )}
      {failed.length > 0 && (
        <ul className="failure-list">
          {failed.map((t) => (
            <li key={t.taskId}>
              <Alert tone="error" title="An image could not be generated">
                {t.error || 'Unknown error.'}
              </Alert>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

export function OutputImagePage() {
  const jobs = useAtomValue(stepsFlowAtom).stepGenerateImage.generatedResponse
  const updateJob = useSetAtom(updateJobAtom)
  const navigate = useNavigate()
  const latest = jobs.length ? jobs[jobs.length - 1]! : null
  useJobPolling(latest)

  // The server's copy of each job: output URLs may be short-lived presigned links.
  const services = useServices(jobs.map((j) => j.serviceId))
  const fetched = services.map((q) => q.data)
  const fetchedKey = services.map((q) => q.dataUpdatedAt).join(',')
  useEffect(() => {
    for (const svc of fetched) {
      if (!svc?.tasks?.length) continue
      const known = jobs.find((j) => j.serviceId === svc.serviceId)
      if (known) updateJob({ ...known, tasks: svc.tasks })
    }
    // Only when an answer arrives, not on every task update.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetchedKey])

  return (
    <div className="page">
      <header className="page-header page-header--row">
        <div>
          <h1>Your generated images</h1>
          <p className="page-header__sub">Images from this session. Download the ones you want to keep.</p>
        </div>
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => {
            // A new image starts a new flow; these results stay downloadable until then.
            resetFlowAndUploads()
            navigate('/upload-images')
          }}
          data-testid="create-another"
        >
          Create another image
        </button>
      </header>
      {jobs.length === 0 ? (
        <div className="empty-state">
          <p>No images generated yet.</p>
          <Link to="/generate" className="btn btn--secondary">
            Go to Generate
          </Link>
        </div>
      ) : (
        [...jobs].reverse().map((job, i) => <JobResults key={job.serviceId} job={job} index={jobs.length - i} />)
      )}
    </div>
  )
}
