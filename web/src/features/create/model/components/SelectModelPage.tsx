import { useAtomValue, useSetAtom } from 'jotai'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { LoadError } from '@/components/ui/LoadError'
import { Alert } from '@/components/ui/Alert'
import { ChoiceCard } from '@/components/ui/ChoiceCard'
import { LoadingBlock } from '@/components/ui/Spinner'
import { IconArrowLeft, IconArrowRight } from '@/components/ui/icons'
import { MODEL_PAGE_SIZE } from '@/config'
import { CategoryChips } from '@/features/create/CategoryChips'
import { FlowShell, FlowStatus } from '@/features/create/FlowShell'
import { useIsAdmin } from '@/hooks/useIsAdmin'
import { mergeFlowAtom, stepsFlowAtom } from '@/features/create/store'
import { useModelCategories } from '../api/getModelCategories'
import { useModelFilters } from '../api/getModelFilters'
import { useModels } from '../api/getModels'
import { useModelFits } from '../api/getModelFits'
import { swapFitKeys } from '@/features/create/fit'
import { capitalize, modelSummary, type ModelFilterKey, type ModelFilters } from '../labels'
import { ModelFilterBar } from './ModelFilterBar'
import { ModelsEmpty } from './ModelsEmpty'
import picker from '@/features/create/picker.module.css'

export function SelectModelPage() {
  const flow = useAtomValue(stepsFlowAtom)
  const merge = useSetAtom(mergeFlowAtom)
  const navigate = useNavigate()
  const [page, setPage] = useState(1)
  // '' means every category (spec §7: GET /api/v1/model `category`).
  const [category, setCategory] = useState('')
  // Gender, skin tone, body type: only the chosen ones are sent (spec §7 GET /api/v1/model).
  const [filters, setFilters] = useState<ModelFilters>({})
  const filtered = Object.values(filters).some(Boolean)
  const { data, error, isFetching, isPlaceholderData, refetch } = useModels(page, category, filters)
  const categories = useModelCategories().data?.items ?? []
  const filterValues = useModelFilters().data
  // Asked only when there is nothing to pick: an admin is then sent to /digital-models.
  const { isAdmin } = useIsAdmin({ enabled: data?.items.length === 0 && !category && !filtered })
  // Every change of the filters starts again at the first page.
  const chooseCategory = (next: string) => {
    setCategory(next)
    setPage(1)
  }
  const chooseFilter = (key: ModelFilterKey, value: string) => {
    setFilters((current) => ({ ...current, [key]: value || undefined }))
    setPage(1)
  }
  const clearFilters = () => {
    setCategory('')
    setFilters({})
    setPage(1)
  }
  // Loading: the first page, or another page while the previous one stays shown.
  const loading = isFetching && (!data || isPlaceholderData)

  const selected = flow.stepSelectModel.selectedModel
  // Which models the photos can be swapped to (their skin tone within reach), before anyone pays.
  const fitKeys = swapFitKeys(flow.stepUploadImages.files)
  const fits = useModelFits(fitKeys)
  // Until every model's fit is known (a model's tone is measured once, in seconds), say so.
  const checking = fitKeys.length > 0 && !fits.error && (!fits.data || fits.data.items.some((m) => m.compatible === null))
  const unavailable = (id: string) => {
    const fit = fits.byId.get(id)
    return fit?.compatible === false ? (fit.reason ?? 'Not available for your photos.') : undefined
  }
  const refused = data?.items.filter((m) => unavailable(m._id)) ?? []
  const reasons = [...new Set(refused.map((m) => unavailable(m._id)!))]
  const selectedRefusal = selected ? unavailable(selected._id) : undefined
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
          <FlowStatus testId="model-status">
            {selected ? (
              <>
                Selected: <strong>{selected.name}</strong>
              </>
            ) : (
              'No model selected: only the background will change.'
            )}
          </FlowStatus>
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
        <LoadError
          title="Models could not be loaded"
          error={error}
          onRetry={() => void refetch()}
          retryLabel="Try again"
        />
      )}

      {!data && loading && <LoadingBlock label="Loading models…" />}

      <CategoryChips
        categories={categories}
        value={category}
        onChange={chooseCategory}
        label={capitalize}
        testId="model-categories"
        chipTestId="model-category"
      />

      {filterValues && <ModelFilterBar values={filterValues} filters={filters} onChange={chooseFilter} />}

      {checking && (
        <p className="muted" role="status" data-testid="model-fit-checking">
          Checking which models suit your photos…
        </p>
      )}

      {selectedRefusal ? (
        <Alert
          tone="warning"
          title={`${selected!.name} is not available for your photos`}
          testId="model-fit-selected"
          action={
            <button type="button" className="btn btn--secondary btn--small" onClick={() => merge({ stepSelectModel: { selectedModel: null } })}>
              Clear the choice
            </button>
          }
        >
          {selectedRefusal}. Choose another model, or skip to change the background only.
        </Alert>
      ) : (
        refused.length > 0 && (
          <Alert tone="info" title={`${refused.length} of these models ${refused.length === 1 ? 'is' : 'are'} not available for your photos`} testId="model-fit-note">
            {reasons.map((r) => (
              <span key={r}>{r}. </span>
            ))}
            They are marked below; the others can be used.
          </Alert>
        )
      )}

      {data && (
        <div className={loading ? picker.pickerLoading : undefined} aria-busy={loading} data-testid="model-picker">
          {data.items.length === 0 ? (
            <ModelsEmpty category={category} filtered={filtered} isAdmin={isAdmin} onShowAll={clearFilters} />
          ) : (
            <div className={`${picker.grid} ${picker.gridPortrait}`} data-testid="model-grid">
              {data.items.map((m) => (
                <ChoiceCard
                  key={m._id}
                  label={m.name}
                  sublabel={modelSummary(m)}
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
                  data={{ 'data-model-name': m.name }}
                  unavailable={unavailable(m._id)}
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
