import { Alert } from '@/components/ui/Alert'
import { LoadingBlock } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import type { GenerationKind } from '@/types/api'
import type { ShowcaseCandidate, ShowcaseCandidates } from '../api/getShowcaseCandidates'
import { KIND_LABELS } from '../labels'
import { CurateToggle } from './CurateToggle'
import styles from '../admin-showcase.module.css'

export const CANDIDATES_PAGE_SIZE = 24

type KindFilter = GenerationKind | 'all'

const FILTERS: Array<[KindFilter, string]> = [
  ['all', 'All'],
  ['bodySwap', KIND_LABELS.bodySwap],
  ['burstreplace', KIND_LABELS.burstreplace],
]

interface CandidateListProps {
  kind: KindFilter
  onKindChange: (kind: KindFilter) => void
  page: number
  onPageChange: (page: number) => void
  data: ShowcaseCandidates | undefined
  isPending: boolean
  isFetching: boolean
  error: unknown
  onRetry: () => void
}

/** The shared outputs (before → after), each with its curate switch, a kind filter and paging. */
export function CandidateList(props: CandidateListProps) {
  const { kind, onKindChange, page, onPageChange, data, isPending, isFetching, error, onRetry } = props
  const pages = data ? Math.max(1, Math.ceil(data.total / CANDIDATES_PAGE_SIZE)) : 1
  return (
    <section className="section" aria-labelledby="admin-candidates-title">
      <div className={styles.adminSectionHead}>
        <div>
          <h2 id="admin-candidates-title" className="section__title">
            Shared outputs
          </h2>
          <p className={`muted ${styles.adminSectionSub}`}>
            Only images whose owner chose to share them are listed. Switch one on to show it in the public showcase.
          </p>
        </div>
        <div className={styles.adminFilters} role="group" aria-label="Service">
          {FILTERS.map(([value, label]) => (
            <button
              key={value}
              type="button"
              className={`chip${kind === value ? ' chip--active' : ''}`}
              aria-pressed={kind === value}
              onClick={() => onKindChange(value)}
            >
              {label}
            </button>
          ))}
        </div>
      </div>

      {isPending ? (
        <LoadingBlock label="Loading shared outputs…" />
      ) : error ? (
        <Alert
          tone="error"
          title="The shared outputs could not be loaded"
          testId="candidates-error"
          action={
            <button type="button" className="btn btn--secondary btn--small" onClick={onRetry}>
              Try again
            </button>
          }
        >
          {errorMessage(error)}
        </Alert>
      ) : !data || data.items.length === 0 ? (
        <div className="empty-state" data-testid="candidates-empty">
          <p className="empty-state__title">Nothing shared yet</p>
          <p>When users share an output to the showcase, it appears here for you to curate.</p>
        </div>
      ) : (
        <>
          <ul className={styles.adminPairs} data-testid="candidate-list" aria-busy={isFetching}>
            {data.items.map((pair) => (
              <CandidateCard key={pair.taskId} pair={pair} />
            ))}
          </ul>
          {pages > 1 && (
            <nav className="pager" aria-label="Shared outputs pages">
              <button
                type="button"
                className="btn btn--secondary btn--small"
                disabled={page <= 1 || isFetching}
                onClick={() => onPageChange(page - 1)}
              >
                Previous
              </button>
              <span className="pager__info" data-testid="candidates-page">
                Page {page} of {pages} · {data.total} shared
              </span>
              <button
                type="button"
                className="btn btn--secondary btn--small"
                disabled={page >= pages || isFetching}
                onClick={() => onPageChange(page + 1)}
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  )
}

function CandidateCard({ pair }: { pair: ShowcaseCandidate }) {
  return (
    <li
      className={`${styles.adminPair}${pair.showcased ? ` ${styles.adminPairOn}` : ''}`}
      data-testid={`candidate-${pair.taskId}`}
      data-showcased={pair.showcased}
    >
      <div className={styles.adminPairImages}>
        <a href={pair.inputUrl} target="_blank" rel="noopener noreferrer" className={styles.adminPairImage}>
          <img src={pair.inputThumbnailUrl} alt="Before: the input" loading="lazy" />
          <span className={styles.adminPairCaption}>Before</span>
        </a>
        <a href={pair.outputUrl} target="_blank" rel="noopener noreferrer" className={styles.adminPairImage}>
          <img src={pair.outputThumbnailUrl} alt="After: the generated image" loading="lazy" />
          <span className={styles.adminPairCaption}>After</span>
        </a>
      </div>
      <div className={styles.adminPairFooter}>
        <span className="status-pill">{KIND_LABELS[pair.service]}</span>
        <CurateToggle imageId={pair.taskId} showcased={pair.showcased} />
      </div>
    </li>
  )
}
