import { useAtomValue, useSetAtom } from 'jotai'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { ChoiceCard } from '@/components/ui/ChoiceCard'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { IconArrowLeft, IconArrowRight } from '@/components/ui/icons'
import { SEED_PAGE_SIZE } from '@/config'
import { FlowShell } from '@/features/flow/components/FlowShell'
import { mergeFlowAtom, stepsFlowAtom, type SelectedBackground } from '@/features/flow/stores/stepsFlow'
import { errorMessage, isAbortError } from '@/lib/api'
import type { Seed } from '@/types/api'
import { getSeeds } from '../api/getSeeds'
import { BUILTIN_LABELS, backgroundLabel } from '../labels'

interface ListState {
  items: Seed[]
  total: number
  loadedPages: number
  loading: boolean
  error: string | null
}

/** Built-ins first (server order otherwise), without duplicates across pages. */
function mergeItems(prev: Seed[], next: Seed[]): Seed[] {
  const seen = new Set(prev.map((s) => s._id))
  const all = [...prev, ...next.filter((s) => !seen.has(s._id))]
  return [...all.filter((s) => s.builtin), ...all.filter((s) => !s.builtin)]
}

function useBackgrounds() {
  const [state, setState] = useState<ListState>({ items: [], total: 0, loadedPages: 0, loading: true, error: null })
  const ctrlRef = useRef<AbortController | null>(null)

  const fetchPage = useCallback((pagenum: number) => {
    ctrlRef.current?.abort()
    const ctrl = new AbortController()
    ctrlRef.current = ctrl
    getSeeds({ type: 'background', pagenum, pagesize: SEED_PAGE_SIZE }, ctrl.signal).then(
      (data) =>
        setState((prev) => ({
          items: mergeItems(pagenum === 1 ? [] : prev.items, data.items ?? []),
          total: data.total ?? 0,
          loadedPages: pagenum,
          loading: false,
          error: null,
        })),
      (err: unknown) => {
        if (!isAbortError(err)) setState((prev) => ({ ...prev, loading: false, error: errorMessage(err) }))
      },
    )
  }, [])

  useEffect(() => {
    fetchPage(1)
    return () => ctrlRef.current?.abort()
  }, [fetchPage])

  const next = () => {
    setState((prev) => ({ ...prev, loading: true, error: null }))
    fetchPage(state.loadedPages + 1)
  }
  const hasMore = state.loadedPages * SEED_PAGE_SIZE < state.total
  return { ...state, hasMore, loadMore: next }
}

function BuiltinSwatch({ id }: { id: string }) {
  return <span className={`swatch swatch--${id === 'transparent' ? 'checker' : 'white'}`} />
}

export function SelectBackgroundPage() {
  const flow = useAtomValue(stepsFlowAtom)
  const merge = useSetAtom(mergeFlowAtom)
  const navigate = useNavigate()
  const { items, loading, error, hasMore, loadMore, loadedPages } = useBackgrounds()

  const model = flow.stepSelectModel.selectedModel
  const selected = flow.stepSelectBackground.selectedBackground
  const canContinue = Boolean(model || selected)

  const select = (bg: Seed) => {
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
          <p className="flow__status" aria-live="polite">
            {selected ? (
              <>
                Selected: <strong>{selected.name}</strong>
              </>
            ) : model ? (
              'Original background will be kept.'
            ) : (
              'Select a background, or go back and choose a model.'
            )}
          </p>
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
        <div className="choice-grid__lead">
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

      {loadedPages === 0 && loading && <LoadingBlock label="Loading backgrounds…" />}

      {items.length > 0 && (
        <div className="choice-grid" data-testid="background-grid">
          {items.map((bg) => (
            <ChoiceCard
              key={bg._id}
              label={backgroundLabel(bg)}
              sublabel={bg.builtin ? 'Built-in' : undefined}
              imageUrl={bg.thumbnailUrl || bg.url}
              swatch={bg.builtin && BUILTIN_LABELS[bg._id] ? <BuiltinSwatch id={bg._id} /> : undefined}
              selected={selected?._id === bg._id}
              onSelect={() => select(bg)}
              testId="background-card"
              data={{ 'data-builtin': String(bg.builtin) }}
            />
          ))}
        </div>
      )}

      {loadedPages > 0 && items.length === 0 && !error && <p className="empty">No backgrounds are available right now.</p>}

      {error && (
        <Alert
          tone="error"
          title="Backgrounds could not be loaded"
          action={
            <button type="button" className="btn btn--secondary btn--small" onClick={loadMore}>
              Try again
            </button>
          }
        >
          {error}
        </Alert>
      )}

      {hasMore && !error && (
        <div className="load-more">
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
