import { useAtomValue, useSetAtom } from 'jotai'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router'
import { DownloadButton } from '@/components/DownloadButton'
import { ZipDownloadButton } from '@/components/ZipDownloadButton'
import { CredentialsPanel } from '@/components/credentials/CredentialsPanel'
import type { CatalogNames } from '@/components/credentials/credentials'
import { ImageViewer, type ViewerItem } from '@/components/viewer/ImageViewer'
import { Alert } from '@/components/ui/Alert'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { LoadingBlock } from '@/components/ui/Spinner'
import { useAuth } from '@/hooks/useAuth'
import { ApiError, errorMessage } from '@/lib/api'
import { failedImageNote, failureSummary } from '@/lib/failures'
import { mergeDownloadAtom, resetDownloadAtom } from '@/stores/download'
import { appStore } from '@/stores/appStore'
import { backgroundLabel } from '@/features/create/background/labels'
import { resetFlowAndUploads, stepsFlowAtom } from '@/features/create/store'
import type { ContentCredentials, Generation, GenerationImage, ImageOutput } from '@/types/api'
import { useGeneration } from '../api/getGeneration'
import { rememberImages } from '../api/pollImages'
import { downloadImages, isTerminal } from '../generations'
import { canAdjust, groupVersions, resultsSummary } from '../placement'
import { PlacementEditor } from './PlacementEditor'
import styles from './OutputImagePage.module.css'
import imageStyles from './ImageCard.module.css'

const SERVICE_TEXT: Record<Generation['service'], string> = {
  bodySwap: 'Model swap',
  burstreplace: 'Background replace',
}

function formatWhen(iso: string): string {
  const when = new Date(iso)
  return Number.isNaN(when.getTime()) ? '' : when.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })
}

function overallProgress(images: GenerationImage[]): number {
  if (!images.length) return 0
  return images.reduce((sum, t) => sum + (isTerminal(t) ? 100 : t.progress || 0), 0) / images.length
}

function Header({ onCreateAnother }: { onCreateAnother: () => void }) {
  return (
    <header className="page-header page-header--row">
      <div>
        <h1>Your generated images</h1>
        <p className="page-header__sub">Download the ones you want to keep. This page shows the same results on any tab or device.</p>
      </div>
      <button type="button" className="btn btn--primary" onClick={onCreateAnother} data-testid="create-another">
        Create another image
      </button>
    </header>
  )
}

/** What the placement editor is open on: an image (original or version) and its original. */
interface Adjusting {
  image: GenerationImage
  original: ImageOutput
  label: string
}

function AdjustButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className={`btn btn--secondary btn--small ${styles.adjust}`} onClick={onClick} aria-label={`Adjust placement of ${label}`} data-testid="adjust-placement">
      Adjust placement
    </button>
  )
}

/**
 * The names of the catalog entries this tab chose (the flow's model and background), for the
 * credentials' ingredients: another entry shows its id (a built-in background its label).
 */
function useCatalogNames(): CatalogNames {
  const flow = useAtomValue(stepsFlowAtom)
  const model = flow.stepSelectModel.selectedModel
  const background = flow.stepSelectBackground.selectedBackground
  return useMemo(
    () => ({
      ...(model ? { [model._id]: model.name } : {}),
      ...(background ? { [background._id]: backgroundLabel(background) } : {}),
    }),
    [model, background],
  )
}

/** A finished image of the page as the viewer shows it (one item per tile, in the page's order). */
function viewerItem(
  id: string,
  title: string,
  output: ImageOutput,
  credentials: ContentCredentials | null | undefined,
  alt: string,
  inputUrl: string,
  fileBaseName: string,
  label: string,
  text: string,
): ViewerItem {
  return {
    id,
    title,
    versions: [{ label: 'Generated', url: output.url, alt, credentials }],
    inputUrl: inputUrl || null,
    downloads: [{ url: output.url, storageKey: output.key, fileBaseName, label, text }],
  }
}

function viewerItems(generation: Generation, groups: ReturnType<typeof groupVersions>, catalogNames: CatalogNames): ViewerItem[] {
  const name = SERVICE_TEXT[generation.service]
  return groups.flatMap(({ original: image, number, versions }) => {
    const output = image.outputs[0]
    if (image.status !== 'completed' || !output) return []
    const items = [
      viewerItem(image.taskId, `${name} · image ${number}`, output, image.contentCredentials, `Generated image ${number}, full size`, image.inputThumbnailUrl, `metamodel-${image.taskId}`, `Download generated image ${number}`, 'Download'),
    ]
    if (image.edited) {
      items.push(
        viewerItem(`${image.taskId}-edited`, `${name} · image ${number}, edited`, image.edited, image.editedCredentials, `Edited image ${number}, full size`, image.inputThumbnailUrl, `metamodel-${image.taskId}-edited`, `Download the edited image ${number}`, 'Download edited'),
      )
    }
    versions.forEach((version, v) => {
      const result = version.outputs[0]
      if (version.status !== 'completed' || !result) return
      const label = `image ${number}, version ${v + 2}`
      items.push(
        viewerItem(version.taskId, `${name} · ${label}`, result, version.contentCredentials, `Generated ${label}, full size`, version.inputThumbnailUrl || image.inputThumbnailUrl, `metamodel-${version.taskId}`, `Download ${label}`, 'Download'),
      )
    })
    return items.map((item) => ({ ...item, catalogNames }))
  })
}

function Results({ generation }: { generation: Generation }) {
  const { isAuthenticated } = useAuth()
  const [adjusting, setAdjusting] = useState<Adjusting | null>(null)
  const [viewing, setViewing] = useState<string | null>(null)
  const done = generation.tasks.filter((t) => t.status === 'completed' && t.outputs.length > 0)
  const failed = generation.tasks.filter((t) => t.status === 'failed')
  const running = !generation.tasks.every(isTerminal)
  // Re-renders with an adjusted placement show as versions of their original image.
  const groups = groupVersions(generation.tasks)
  const originals = groups.map((g) => g.original)
  const originalsDone = originals.filter((t) => t.status === 'completed' && t.outputs.length > 0)
  const originalsFailed = originals.filter((t) => t.status === 'failed')
  const adjustable = canAdjust(generation.backgroundId)
  const failure = failureSummary(generation.tasks, generation.credits)
  // Failed re-renders have no tile of their own (their image keeps its other versions).
  const failedRerenders = failed.filter((t) => t.sourceTaskId)
  // Every tile opens the large viewer, which walks through the page's images in order.
  const catalogNames = useCatalogNames()
  const items = viewerItems(generation, groups, catalogNames)
  const viewingIndex = viewing ? items.findIndex((i) => i.id === viewing) : -1

  return (
    <section className={`section ${styles.results}`} aria-labelledby="generation-heading" data-testid="output-results" data-service-id={generation.serviceId}>
      <div className={styles.jobHeader}>
        <h2 id="generation-heading" className="section__title">
          {SERVICE_TEXT[generation.service]}
        </h2>
        <p className="muted" aria-live="polite" data-testid="output-summary">
          {formatWhen(generation.createdAt)} · {resultsSummary(groups)}
        </p>
      </div>

      {running && (
        <Alert tone="info" title="Still generating">
          This page updates by itself.
          <ProgressBar value={overallProgress(generation.tasks)} label="Overall progress" testId="overall-progress" />
        </Alert>
      )}

      {done.length > 0 && (
        <div className={styles.actions}>
          <ZipDownloadButton
            imageIds={done.map((image) => image.taskId)}
            label={done.length > 1 ? `Download all (${done.length})` : 'Download all'}
            variant="secondary"
            testId="download-all"
          />
          {isAuthenticated && (
            <Link to="/my-images" className="btn btn--ghost">
              All my images
            </Link>
          )}
        </div>
      )}

      {failure && (
        <Alert
          tone={originalsDone.length ? 'warning' : 'error'}
          title={originalsDone.length ? 'Some images could not be generated' : 'No image could be generated'}
          testId="failure-banner"
        >
          {failure.message} The reason is under each failed image.
        </Alert>
      )}

      {(done.length > 0 || originalsFailed.length > 0) && (
        <ul className={styles.grid}>
          {groups.flatMap(({ original: image, number, versions }) => {
            const output = image.outputs[0]
            if (image.status === 'failed') {
              return [
                <li key={image.taskId} className={`${styles.output} ${styles.outputFailed}`} data-testid="output-failed" data-task-id={image.taskId}>
                  <div className={styles.media}>
                    {image.inputThumbnailUrl ? (
                      <img src={image.inputThumbnailUrl} alt={`Input image ${number}`} className={imageStyles.input} data-testid="failed-input" />
                    ) : (
                      <span className={imageStyles.placeholder} aria-hidden="true" />
                    )}
                    <span className={`status-pill status-pill--failed ${styles.badge}`}>Failed</span>
                  </div>
                  <div className={imageStyles.info}>
                    <p className={imageStyles.title}>Image {number} could not be generated</p>
                    <p className="image__error" data-testid="output-failure">
                      {image.error || generation.error || 'The image could not be generated.'}
                    </p>
                    <p className={`muted ${styles.note}`} data-testid="output-failure-credits">
                      {failedImageNote(image, generation.tasks, generation.credits)}
                    </p>
                  </div>
                </li>,
              ]
            }
            if (image.status !== 'completed' || !output) return []
            const items = [
              <li key={image.taskId} className={styles.output} data-testid="output-item" data-task-id={image.taskId}>
                <button type="button" className={styles.media} onClick={() => setViewing(image.taskId)} aria-label={`Open generated image ${number} full size`} data-testid="output-open">
                  <img src={output.thumbnailUrl || output.url} alt={`Generated image ${number}`} data-testid="output-image" />
                </button>
                <DownloadButton
                  url={output.url}
                  storageKey={output.key}
                  fileBaseName={`metamodel-${image.taskId}`}
                  label={`Download generated image ${number}`}
                />
                {image.note && (
                  <p className={`muted ${styles.note}`} data-testid="output-note">
                    {image.note}
                  </p>
                )}
                <CredentialsPanel credentials={image.contentCredentials} catalogNames={catalogNames} className={styles.credentials} />
                {adjustable && <AdjustButton label={`image ${number}`} onClick={() => setAdjusting({ image, original: output, label: `image ${number}` })} />}
              </li>,
            ]
            if (image.edited) {
              const edited = image.edited
              items.push(
                <li key={`${image.taskId}-edited`} className={styles.output} data-testid="edited-item" data-task-id={image.taskId}>
                  <button type="button" className={styles.media} onClick={() => setViewing(`${image.taskId}-edited`)} aria-label={`Open the edited image ${number} full size`}>
                    <img src={edited.thumbnailUrl || edited.url} alt={`Edited image ${number}`} />
                    <span className={`status-pill status-pill--completed ${styles.badge}`} data-testid="edited-badge">
                      Edited
                    </span>
                  </button>
                  <DownloadButton
                    url={edited.url}
                    storageKey={edited.key}
                    fileBaseName={`metamodel-${image.taskId}-edited`}
                    label={`Download the edited image ${number}`}
                    text="Download edited"
                  />
                  <CredentialsPanel credentials={image.editedCredentials} catalogNames={catalogNames} className={styles.credentials} />
                </li>,
              )
            }
            versions.forEach((version, v) => {
              const label = `image ${number}, version ${v + 2}`
              const result = version.outputs[0]
              if (version.status === 'failed') return
              items.push(
                <li key={version.taskId} className={styles.output} data-testid="version-item" data-task-id={version.taskId} data-status={version.status}>
                  {version.status === 'completed' && result ? (
                    <>
                      <button type="button" className={styles.media} onClick={() => setViewing(version.taskId)} aria-label={`Open ${label} full size`}>
                        <img src={result.thumbnailUrl || result.url} alt={`Generated ${label}`} data-testid="version-image" />
                        <span className={`status-pill status-pill--completed ${styles.badge}`}>Version {v + 2}</span>
                      </button>
                      <DownloadButton
                        url={result.url}
                        storageKey={result.key}
                        fileBaseName={`metamodel-${version.taskId}`}
                        label={`Download ${label}`}
                      />
                      <CredentialsPanel credentials={version.contentCredentials} catalogNames={catalogNames} className={styles.credentials} />
                      {adjustable && <AdjustButton label={label} onClick={() => setAdjusting({ image: version, original: output, label })} />}
                    </>
                  ) : (
                    <div className={imageStyles.info}>
                      <p className={imageStyles.title}>
                        Version {v + 2} of image {number}
                        <span className={`status-pill status-pill--${version.status}`}>Re-rendering</span>
                      </p>
                      <ProgressBar value={version.progress || 0} label={`Progress of ${label}`} />
                    </div>
                  )}
                </li>,
              )
            })
            return items
          })}
        </ul>
      )}

      {viewingIndex >= 0 && (
        <ImageViewer
          items={items}
          index={viewingIndex}
          onIndexChange={(i) => setViewing(items[i]?.id ?? null)}
          onClose={() => setViewing(null)}
          testId="output-viewer"
        />
      )}

      {adjusting && generation.backgroundId && (
        <PlacementEditor
          generationId={generation.serviceId}
          backgroundId={generation.backgroundId}
          image={adjusting.image}
          original={adjusting.original}
          imageLabel={adjusting.label}
          onClose={() => setAdjusting(null)}
        />
      )}

      {failedRerenders.length > 0 && (
        <ul className={styles.failureList}>
          {failedRerenders.map((t) => (
            <li key={t.taskId}>
              <Alert tone="error" title="A re-render could not be made" testId="rerender-failure">
                {t.error || generation.error || 'Unknown error.'} {failedImageNote(t, generation.tasks, generation.credits)}
              </Alert>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Generation({ generationId }: { generationId: string }) {
  const query = useGeneration(generationId)
  const client = useQueryClient()
  const mergeDownloads = useSetAtom(mergeDownloadAtom)
  const resetDownloads = useSetAtom(resetDownloadAtom)
  const generation = query.data

  // The download store (spec: generatedImages, manualEditingImages) follows what is shown;
  // the cached images of a generation this tab started too, so going back to /generate shows the
  // same state.
  useEffect(() => {
    if (!generation) return
    mergeDownloads(downloadImages(generation))
    const known = appStore.get(stepsFlowAtom).stepGenerateImage.generatedResponse.find((g) => g.id === generation.serviceId)
    if (known && generation.tasks.length) rememberImages(client, known, generation.tasks)
  }, [generation, mergeDownloads, client])
  useEffect(() => () => resetDownloads(), [generationId, resetDownloads])

  if (query.isPending) return <LoadingBlock label="Loading your images…" />
  if (!generation) {
    const missing = query.error instanceof ApiError && query.error.status === 404
    return (
      <Alert
        tone="error"
        title={missing ? 'Generation not found' : 'Your images could not be loaded'}
        testId="output-error"
        action={
          missing ? undefined : (
            <button type="button" className="btn btn--secondary btn--small" onClick={() => void query.refetch()}>
              Retry
            </button>
          )
        }
      >
        {missing
          ? 'It may have been deleted, or made with another account: log in with the account that made it.'
          : errorMessage(query.error)}
      </Alert>
    )
  }
  return <Results generation={generation} />
}

export function OutputImagePage() {
  const [params] = useSearchParams()
  const generationId = params.get('serviceId')?.trim() || null
  const generations = useAtomValue(stepsFlowAtom).stepGenerateImage.generatedResponse
  const latest = generations.length ? generations[generations.length - 1]!.id : null
  const navigate = useNavigate()
  const createAnother = () => {
    // A new image starts a new flow; these results stay reachable through the link and My Images.
    resetFlowAndUploads()
    navigate('/upload-images')
  }

  // Without an id, this tab's latest generation, with its id in the address (reload, share).
  if (!generationId && latest) return <Navigate to={`/output-image?serviceId=${encodeURIComponent(latest)}`} replace />

  return (
    <div className="page">
      <Header onCreateAnother={createAnother} />
      {generationId ? (
        <Generation key={generationId} generationId={generationId} />
      ) : (
        <div className="empty-state" data-testid="output-empty">
          <p className="empty-state__title">No generation to show</p>
          <p className="muted">Generate images first, or find earlier ones in My Images.</p>
          <div className={styles.emptyActions}>
            <Link to="/upload-images" className="btn btn--primary">
              Create New Image
            </Link>
            <Link to="/my-images" className="btn btn--secondary">
              My Images
            </Link>
          </div>
        </div>
      )}
    </div>
  )
}
