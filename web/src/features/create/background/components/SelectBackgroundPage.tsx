import { useAtomValue, useSetAtom } from 'jotai'
import { useMemo, useState } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { ChoiceCard } from '@/components/ui/ChoiceCard'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { IconArrowLeft, IconArrowRight } from '@/components/ui/icons'
import { CategoryChips } from '@/features/create/CategoryChips'
import { FlowShell, FlowStatus } from '@/features/create/FlowShell'
import { errorMessage } from '@/lib/api'
import { mergeFlowAtom, stepsFlowAtom, type SelectedBackground } from '@/features/create/store'
import type { CatalogItem } from '@/types/api'
import { useCatalogItems } from '../api/getCatalogItems'
import { BUILTIN_LABELS, backgroundCategories, backgroundLabel, categoryLabel, filterBackgrounds } from '../labels'
import picker from '@/features/create/picker.module.css'

/** Built-ins first (server order otherwise), without duplicates across pages. */
function mergeItems(pages: CatalogItem[][]): CatalogItem[] {
  const seen = new Set<string>()
  const all: CatalogItem[] = []
  for (const s of pages.flat()) {
    if (seen.has(s._id)) continue
    seen.add(s._id)
    all.push(s)
  }
  return [...all.filter((s) => s.builtin), ...all.filter((s) => !s.builtin)]
}

function useBackgrounds() {
  const query = useCatalogItems('background')
  const items = useMemo(() => mergeItems(query.data?.pages.map((p) => p.items ?? []) ?? []), [query.data])
  const loading = query.isFetching
  const retry = () => void (query.data ? query.fetchNextPage() : query.refetch())
  return {
    items,
    loading,
    loaded: query.data !== undefined,
    error: query.error && !loading ? errorMessage(query.error) : null,
    hasMore: query.hasNextPage,
    loadMore: () => void query.fetchNextPage(),
    retry,
  }
}

function BuiltinSwatch({ id }: { id: string }) {
  return <span className={`swatch swatch--${id === 'transparent' ? 'checker' : 'white'}`} />
}

export function SelectBackgroundPage() {
  const flow = useAtomValue(stepsFlowAtom)
  const merge = useSetAtom(mergeFlowAtom)
  const navigate = useNavigate()
  const { items, loading, loaded, error, hasMore, loadMore, retry } = useBackgrounds()
  // '' is every category. No server-side filter for seeds: the loaded pages are filtered here.
  const [category, setCategory] = useState('')
  const categories = useMemo(() => backgroundCategories(items), [items])
  const shown = useMemo(() => filterBackgrounds(items, category), [items, category])
  const photosShown = shown.some((bg) => !bg.builtin)

  const model = flow.stepSelectModel.selectedModel
  const selected = flow.stepSelectBackground.selectedBackground
  const canContinue = Boolean(model || selected)

  const select = (bg: CatalogItem) => {
    const value: SelectedBackground = {
      _id: bg._id,
      name: backgroundLabel(bg),
      url: bg.url,
      thumbnailUrl: bg.thumbnailUrl,
      builtin: bg.builtin,
    }
    merge({ stepSelectBackground: { selectedBackground: selected?._id === bg._id ? null : value } })
  }

  return (
    <FlowShell
      step={2}
      title="Select a background"
      subtitle={model ? 'Optional: keep the original background or pick a new one.' : 'Pick the background for your images.'}
      footer={
        <>
          <button type="button" className="btn btn--ghost" onClick={() => navigate('/select-model')}>
            <IconArrowLeft size={18} /> Back
          </button>
          <FlowStatus>
            {selected ? (
              <>
                Selected: <strong>{selected.name}</strong>
              </>
            ) : model ? (
              'Original background will be kept.'
            ) : (
              'Select a background, or go back and choose a model.'
            )}
          </FlowStatus>
          <button
            type="button"
            className="btn btn--primary"
            disabled={!canContinue}
            onClick={() => navigate('/generate')}
            data-testid="next-button"
          >
            Next: generate <IconArrowRight size={18} />
          </button>
        </>
      }
    >
      {model && (
        <div className={picker.lead}>
          <button
            type="button"
            className={`chip${selected ? '' : ' chip--active'}`}
            aria-pressed={!selected}
            onClick={() => merge({ stepSelectBackground: { selectedBackground: null } })}
            data-testid="keep-background"
          >
            Keep original background
          </button>
        </div>
      )}

      {!loaded && loading && <LoadingBlock label="Loading backgrounds…" />}

      <CategoryChips
        categories={categories}
        value={category}
        onChange={setCategory}
        label={categoryLabel}
        testId="background-categories"
        chipTestId="background-category"
      />

      {shown.length > 0 && (
        <div className={picker.grid} data-testid="background-grid">
          {shown.map((bg) => (
            <ChoiceCard
              key={bg._id}
              label={backgroundLabel(bg)}
              sublabel={bg.builtin ? 'Built-in' : categoryLabel(bg.category) || undefined}
              imageUrl={bg.thumbnailUrl || bg.url}
              swatch={bg.builtin && BUILTIN_LABELS[bg._id] ? <BuiltinSwatch id={bg._id} /> : undefined}
              selected={selected?._id === bg._id}
              onSelect={() => select(bg)}
              testId="background-card"
              data={{ 'data-builtin': String(bg.builtin), 'data-category': bg.builtin ? '' : bg.category.trim().toLowerCase() }}
            />
          ))}
        </div>
      )}

      {loaded && items.length === 0 && !error && <p className="empty">No backgrounds are available right now.</p>}

      {category && !photosShown && !loading && (
        <div className="empty-state" data-testid="backgrounds-empty">
          <p className="empty-state__title">No {categoryLabel(category).toLowerCase()} backgrounds loaded</p>
          <button type="button" className="btn btn--secondary btn--small" onClick={() => setCategory('')}>
            Show all backgrounds
          </button>
        </div>
      )}

      {error && (
        <Alert
          tone="error"
          title="Backgrounds could not be loaded"
          action={
            <button type="button" className="btn btn--secondary btn--small" onClick={retry}>
              Try again
            </button>
          }
        >
          {error}
        </Alert>
      )}

      {hasMore && !error && (
        <div className={picker.loadMore}>
          <button
            type="button"
            className="btn btn--secondary"
            onClick={loadMore}
            disabled={loading}
            data-testid="backgrounds-load-more"
          >
            {loading ? <Spinner label="Loading more backgrounds" /> : null}
            Load more
          </button>
        </div>
      )}
    </FlowShell>
  )
}
