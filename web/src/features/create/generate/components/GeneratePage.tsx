import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect, useRef } from 'react'
import { Link, useNavigate } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { Spinner } from '@/components/ui/Spinner'
import { IconArrowLeft, IconSparkle } from '@/components/ui/icons'
import { FlowShell } from '@/features/create/FlowShell'
import { useCredits } from '@/hooks/useCredits'
import { ApiError, errorMessage } from '@/lib/api'
import { failureSummary } from '@/lib/failures'
import { formatCredits, pluralize } from '@/lib/format'
import { newUuid } from '@/lib/identity'
import { mergeFlowAtom, removeFileAtom, stepsFlowAtom, updateGenerationAtom, usableFiles } from '@/features/create/store'
import { KIND_NAMES, swapFitKeys, switchableKind, unusablePhotos, usablePhotos, type UnusablePhoto } from '@/features/create/fit'
import { useModelFits } from '@/features/create/model/api/getModelFits'
import type { GenerationKind } from '@/types/api'
import { useCost, type CostRequest } from '../api/getCost'
import { useSubmitGeneration } from '../api/submitGeneration'
import { useGenerationPolling } from '../hooks/useGenerationPolling'
import { ChoicesSummary } from './ChoicesSummary'
import { NotifyEmailForm } from './NotifyEmailForm'
import { ShortBalance } from './ShortBalance'
import { ImageCard } from './ImageCard'
import styles from './GeneratePage.module.css'

/**
 * The photos the chosen kind cannot use, each with its reason, before the click: they are not
 * counted, priced or sent. One click drops them; when the other kind would take them all, one
 * click switches to it.
 */
function UnusablePhotos({
  unusable,
  total,
  kind,
  onDrop,
  onSwitch,
}: {
  unusable: UnusablePhoto[]
  total: number
  kind: GenerationKind
  onDrop: () => void
  onSwitch: (() => void) | null
}) {
  const other = kind === 'bodySwap' ? 'burstreplace' : 'bodySwap'
  const all = unusable.length === total
  return (
    <Alert
      tone={all ? 'error' : 'warning'}
      title={
        all
          ? `None of your ${pluralize(total, 'photo')} can be used for a ${KIND_NAMES[kind]}`
          : `${unusable.length} of your ${total} photos cannot be used for a ${KIND_NAMES[kind]}: ${unusable.length === 1 ? 'it is' : 'they are'} skipped`
      }
      testId="unusable-photos"
    >
      <ul className={styles.unusableList}>
        {unusable.map((u) => (
          <li key={u.file._id} data-testid="unusable-photo">
            <strong>Image {u.number}</strong> ({u.file.name}): {u.reason.replace(/\.?$/, '.')}
          </li>
        ))}
      </ul>
      <div className={styles.unusableActions}>
        <button type="button" className="btn btn--secondary btn--small" onClick={onDrop} data-testid="drop-unusable">
          Remove {unusable.length === 1 ? 'this photo' : `these ${unusable.length} photos`}
        </button>
        {onSwitch && (
          <button type="button" className="btn btn--secondary btn--small" onClick={onSwitch} data-testid="switch-service">
            {other === 'burstreplace' ? 'Change the background only instead' : 'Use a model swap instead'}
          </button>
        )}
      </div>
    </Alert>
  )
}

function SubmitError({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  if (error.status === 402) {
    return (
      <Alert
        tone="error"
        title="Not enough credits"
        testId="insufficient-credits"
        action={
          <Link to="/subscription" className="btn btn--primary btn--small">
            See pricing
          </Link>
        }
      >
        {error.message} Buy credits or reduce the number of images, then try again.
      </Alert>
    )
  }
  // Network errors and 5xx may not have reached the server: the retry reuses
  // the same Idempotency-Key so it can never be charged twice.
  const retryable = error.status === 0 || error.status >= 500
  return (
    <Alert
      tone="error"
      title="Generation could not be started"
      testId="generate-error"
      action={
        retryable ? (
          <button type="button" className="btn btn--secondary btn--small" onClick={onRetry}>
            Try again
          </button>
        ) : undefined
      }
    >
      {error.message}
    </Alert>
  )
}

export function GeneratePage() {
  const flow = useAtomValue(stepsFlowAtom)
  const { data: credits } = useCredits()
  const merge = useSetAtom(mergeFlowAtom)
  const updateGeneration = useSetAtom(updateGenerationAtom)
  const navigate = useNavigate()
  const submit = useSubmitGeneration()
  const submitting = submit.isPending
  const submitError = submit.error
    ? submit.error instanceof ApiError
      ? submit.error
      : new ApiError(0, errorMessage(submit.error))
    : null
  // One key per Generate click, kept until that click gets a definite answer.
  const idempotencyKey = useRef<string | null>(null)

  const allFiles = flow.stepUploadImages.files
  const model = flow.stepSelectModel.selectedModel
  const background = flow.stepSelectBackground.selectedBackground
  const kind: GenerationKind | null = model ? 'bodySwap' : background ? 'burstreplace' : null
  // Before the click: the photos the kind (and for a model swap, the model's skin tone) cannot
  // use are listed with their reasons, and only the others are counted, priced and sent.
  const fits = useModelFits(kind === 'bodySwap' ? swapFitKeys(allFiles) : [])
  const fit = model ? fits.byId.get(model._id) : undefined
  const unusable = kind ? unusablePhotos(allFiles, kind, fit) : []
  const files = kind ? usablePhotos(allFiles, kind, fit) : usableFiles(allFiles)
  const removeFile = useSetAtom(removeFileAtom)
  const dropUnusable = () => unusable.forEach((u) => removeFile(u.file._id))
  const switchTo = kind ? switchableKind(unusable, kind) : null
  const switchKind = () => {
    if (switchTo === 'burstreplace') {
      merge({ stepSelectModel: { selectedModel: null } })
      if (!background) navigate('/select-background')
    } else navigate('/select-model')
  }
  const inputFiles = files.map((f) => f.key!)

  const costRequest: CostRequest | null =
    kind && inputFiles.length
      ? { backgroundId: background?._id ?? null, modelId: model?._id ?? null, inputFiles, requestType: kind }
      : null
  const cost = useCost(costRequest)
  const costCredits = cost.data?.credits
  const costError = cost.error && !cost.isFetching ? errorMessage(cost.error) : null

  const generations = flow.stepGenerateImage.generatedResponse
  const generation = generations.length ? generations[generations.length - 1]! : null
  // The images come from the query cache (polled until they have all ended), never from the store.
  const { images, known, running, warning: pollWarning } = useGenerationPolling(generation)

  // A generation this page saw running opens on the output page (from the server, by its id)
  // once it has ended with at least one image (its failed images are shown there too, with their
  // input, reason and the credits returned); if every image failed, the reasons stay here.
  // (Before the first poll answers, the images are placeholders: not seen running yet.)
  const watched = useRef<string | null>(null)
  const generationId = generation?.id ?? null
  useEffect(() => {
    if (!generationId || !known) return
    if (running) {
      watched.current = generationId
      return
    }
    if (watched.current === generationId && images.some((t) => t.status === 'completed')) {
      watched.current = null
      navigate(`/output-image?serviceId=${encodeURIComponent(generationId)}`)
    }
  }, [generationId, known, running, images, navigate])

  const generate = async () => {
    if (!kind || submitting) return
    idempotencyKey.current ??= newUuid()
    merge({ isGeneratedClicked: true })
    try {
      const res = await submit.mutateAsync({
        kind,
        modelId: model?._id ?? null,
        backgroundId: background?._id ?? null,
        inputFiles,
        idempotencyKey: idempotencyKey.current,
      })
      idempotencyKey.current = null
      // Seen starting here: it opens on the output page once it has ended with an image.
      watched.current = res.serviceId
      updateGeneration({
        id: res.serviceId,
        kind,
        imageIds: res.taskIds,
        credits: res.credits,
        createdAt: new Date().toISOString(),
        modelName: model?.name ?? null,
        backgroundName: background?.name ?? null,
        notifyEmail: null,
      })
      merge({ stepUploadImages: { isGeneratedKey: true } })
    } catch (err) {
      // A 4xx is a definite answer for this click; the next click is a new request.
      // (The error itself is shown from the mutation's state.)
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) idempotencyKey.current = null
    }
  }

  const balance = credits?.total
  const short = costCredits !== undefined && balance !== undefined && costCredits > balance
  const overall = images.length ? images.reduce((s, t) => s + (t.status === 'completed' || t.status === 'failed' ? 100 : t.progress || 0), 0) / images.length : 0
  const completed = images.filter((t) => t.status === 'completed').length
  const failed = images.filter((t) => t.status === 'failed').length
  // Failures are final (and refunded) as they happen; the banner waits for the whole batch.
  const failure = generation && !running ? failureSummary(images, generation.credits) : null
  const inputByKey = new Map(flow.stepUploadImages.files.map((f) => [f.key, f]))

  return (
    <FlowShell
      step={3}
      title="Generate your images"
      subtitle="Check your choices, then generate. Each input image produces one new image."
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={() => navigate('/select-background')}>
            <IconArrowLeft size={18} /> Back
          </button>
          {generation && !running && completed > 0 && (
            <Link
              to={`/output-image?serviceId=${encodeURIComponent(generation.id)}`}
              className="btn btn--secondary"
              data-testid="view-results"
            >
              View all results
            </Link>
          )}
        </>
      }
    >
      {kind && unusable.length > 0 && (
        <UnusablePhotos
          unusable={unusable}
          total={unusable.length + files.length}
          kind={kind}
          onDrop={dropUnusable}
          onSwitch={switchTo ? switchKind : null}
        />
      )}

      <div className={styles.grid}>
        <ChoicesSummary files={files} unusableCount={unusable.length} model={model} background={background} />

        <section className={`card ${styles.costCard}`} aria-labelledby="cost-heading">
          <h2 id="cost-heading" className="card__title">
            Cost
          </h2>
          {!kind ? (
            <Alert tone="warning" title="Nothing to generate">
              Choose a model or a background first. <Link to="/select-model">Select a model</Link>
            </Alert>
          ) : files.length === 0 ? (
            <Alert tone="warning" title="No usable images" testId="no-usable-images">
              {unusable.length > 0 ? 'Remove the photos listed above, or ' : ''}
              <Link to="/upload-images">{unusable.length > 0 ? 'upload other photos.' : 'Upload at least one image.'}</Link>
            </Alert>
          ) : (
            <>
              <p className={styles.cost} data-testid="cost" aria-live="polite">
                {cost.isFetching && costCredits === undefined ? (
                  <Spinner label="Calculating cost" />
                ) : costCredits !== undefined ? (
                  <>
                    <span className={styles.costValue} data-testid="cost-value">
                      {formatCredits(costCredits)}
                    </span>
                    <span className={styles.costUnit}>{costCredits === 1 ? 'credit' : 'credits'}</span>
                  </>
                ) : (
                  <span className="muted">Cost unavailable</span>
                )}
              </p>
              <p className="muted">
                {pluralize(files.length, 'image')} ·{' '}
                {kind === 'bodySwap' ? 'model swap' : 'background replace'}
                {balance !== undefined && (
                  <>
                    {' · balance '}
                    <span data-testid="generate-balance">{formatCredits(balance)}</span>
                  </>
                )}
              </p>
              {costError && (
                <Alert
                  tone="error"
                  title="Could not calculate the cost"
                  action={
                    <button type="button" className="btn btn--secondary btn--small" onClick={() => void cost.refetch()}>
                      Retry
                    </button>
                  }
                >
                  {costError}
                </Alert>
              )}
              {short && <ShortBalance />}
              <button
                type="button"
                className="btn btn--primary btn--large btn--block"
                onClick={() => void generate()}
                disabled={submitting || running || costCredits === undefined}
                data-testid="generate-button"
              >
                {submitting ? <Spinner label="Submitting" /> : <IconSparkle size={18} />}
                {submitting ? 'Starting…' : running ? 'Generating…' : generation ? 'Generate again' : 'Generate'}
              </button>
            </>
          )}
        </section>
      </div>

      {submitError && (
        <SubmitError error={submitError} onRetry={() => void generate()} />
      )}

      {generation && (
        <section className={`section ${styles.job}`} aria-labelledby="job-heading" data-testid="job">
          <div className={styles.jobHeader}>
            <h2 id="job-heading" className="section__title">
              {running ? 'Generating…' : 'Results'}
            </h2>
            <p className="muted" aria-live="polite" data-testid="job-summary">
              {completed} of {images.length} done{failed ? `, ${failed} failed` : ''}
            </p>
          </div>
          {running && <ProgressBar value={overall} label="Overall progress" testId="overall-progress" />}
          {pollWarning && <Alert tone="warning">{pollWarning}</Alert>}
          {failure && (
            <Alert
              tone={completed === 0 ? 'error' : 'warning'}
              title={completed === 0 ? 'No image could be generated' : 'Some images could not be generated'}
              testId="failure-banner"
            >
              {failure.message}{' '}
              {completed === 0
                ? 'See the reasons below, then try different photos or choices.'
                : 'The reason is under each failed image.'}
            </Alert>
          )}
          <ul className={styles.imageGrid}>
            {images.map((t, i) => (
              <ImageCard key={t.taskId} image={t} index={i} input={inputByKey.get(t.inputKey) ?? undefined} />
            ))}
          </ul>
          {running && <NotifyEmailForm generation={generation} />}
        </section>
      )}
    </FlowShell>
  )
}
