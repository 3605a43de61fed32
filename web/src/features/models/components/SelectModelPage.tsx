import { useAtomValue, useSetAtom } from 'jotai'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { ChoiceCard } from '@/components/ui/ChoiceCard'
import { LoadingBlock } from '@/components/ui/Spinner'
import { IconArrowLeft, IconArrowRight } from '@/components/ui/icons'
import { MODEL_PAGE_SIZE } from '@/config'
import { FlowShell } from '@/components/FlowShell'
import { errorMessage } from '@/lib/api'
import { mergeFlowAtom, stepsFlowAtom } from '@/stores/stepsFlow'
import { useModels } from '../api/getModels'

export function SelectModelPage() {
  const flow = useAtomValue(stepsFlowAtom)
  const merge = useSetAtom(mergeFlowAtom)
  const navigate = useNavigate()
  const [page, setPage] = useState(1)
  const { data, error, isFetching, isPlaceholderData, refetch } = useModels(page)
  // Loading: the first page, or another page while the previous one stays shown.
  const loading = isFetching && (!data || isPlaceholderData)

  const selected = flow.stepSelectModel.selectedModel
  const totalPages = data ? Math.max(1, Math.ceil(data.total / MODEL_PAGE_SIZE)) : 1

  return (
    <FlowShell
      step={1}
      title="Select a digital model"
      subtitle="The garment from your photos will be shown on this model."
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={() => navigate('/upload-images')}>
            <IconArrowLeft size={18} /> Back
          </button>
          <p className="flow__status" aria-live="polite">
            {selected ? (
              <>
                Selected: <strong>{selected.name}</strong>
              </>
            ) : (
              'No model selected: only the background will change.'
            )}
          </p>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => navigate('/select-background')}
            data-testid="next-button"
          >
            {selected ? 'Next: background' : 'Skip: change background only'} <IconArrowRight size={18} />
          </button>
        </>
      }
    >
      {error && !isFetching && (
        <Alert
          tone="error"
          title="Models could not be loaded"
          action={
            <button type="button" className="btn btn--secondary btn--small" onClick={() => void refetch()}>
              Try again
            </button>
          }
        >
          {errorMessage(error)}
        </Alert>
      )}

      {!data && loading && <LoadingBlock label="Loading models…" />}

      {data && (
        <div className={`picker${loading ? ' picker--loading' : ''}`} aria-busy={loading}>
          {data.items.length === 0 ? (
            <p className="empty">No models are available right now.</p>
          ) : (
            <div className="choice-grid choice-grid--portrait" data-testid="model-grid">
              {data.items.map((m) => (
                <ChoiceCard
                  key={m._id}
                  label={m.name}
                  sublabel={m.category ? m.category.charAt(0).toUpperCase() + m.category.slice(1) : undefined}
                  imageUrl={m.thumbnailUrl || m.url}
                  selected={selected?._id === m._id}
                  onSelect={() =>
                    merge({
                      stepSelectModel: {
                        // Clicking the selected model again clears the choice.
                        selectedModel:
                          selected?._id === m._id
                            ? null
                            : { _id: m._id, name: m.name, category: m.category, url: m.url, thumbnailUrl: m.thumbnailUrl },
                      },
                    })
                  }
                  testId="model-card"
                />
              ))}
            </div>
          )}

          {totalPages > 1 && (
            <nav className="pager" aria-label="Model pages">
              <button
                type="button"
                className="btn btn--secondary btn--small"
                disabled={page <= 1 || loading}
                onClick={() => setPage((p) => p - 1)}
                data-testid="models-prev"
              >
                <IconArrowLeft size={16} /> Previous
              </button>
              <span className="pager__info">
                Page {page} of {totalPages}
              </span>
              <button
                type="button"
                className="btn btn--secondary btn--small"
                disabled={page >= totalPages || loading}
                onClick={() => setPage((p) => p + 1)}
                data-testid="models-next"
              >
                Next <IconArrowRight size={16} />
              </button>
            </nav>
          )}
        </div>
      )}
    </FlowShell>
  )
}
