import { Link, useSearchParams } from 'react-router'
import { LoadError } from '@/components/ui/LoadError'
import { IconArrowLeft, IconArrowRight } from '@/components/ui/icons'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import type { GenerationKind } from '@/types/api'
import { useShowcase, type ShowcasePair } from '../api/getShowcase'
import { parsePage, parseKind, kindLabel, SHOWCASE_PAGE_SIZE, SHOWCASE_KINDS } from '../kinds'
import { BeforeAfter } from './BeforeAfter'
import styles from '../showcase.module.css'

function TryIt({ large = false }: { large?: boolean }) {
  return (
    <Link
      to="/upload-images"
      className={`btn btn--primary${large ? ' btn--large' : ''}`}
      data-testid="showcase-try"
    >
      Try it <IconArrowRight size={18} />
    </Link>
  )
}

// `first`: the page's first pair, its largest image on a phone (one column) and in the first row
// on a desktop: fetched at once and first, the others as they scroll near.
function PairCard({ pair, index, first }: { pair: ShowcasePair; index: number; first: boolean }) {
  const label = `${kindLabel(pair.service)} example ${index}`
  return (
    <li className={`card ${styles.showcaseItem}`} data-testid="showcase-item">
      <BeforeAfter before={pair.inputThumbnailUrl} after={pair.outputThumbnailUrl} label={label} priority={first} />
      <div className={styles.showcaseMeta}>
        <span className={styles.showcaseService}>{kindLabel(pair.service)}</span>
        <span className={`${styles.showcaseLinks} muted`}>
          Full size:
          <a href={pair.inputUrl} target="_blank" rel="noreferrer" className="link-small" aria-label={`Before, full size: ${label}`}>
            before
          </a>
          <a href={pair.outputUrl} target="_blank" rel="noreferrer" className="link-small" aria-label={`After, full size: ${label}`}>
            after
          </a>
        </span>
      </div>
    </li>
  )
}

/** /showcase: curated before/after pairs, public. ?service= and ?page= keep the place. */
export function ShowcasePage() {
  const [params, setParams] = useSearchParams()
  const kind = parseKind(params.get('service'))
  const page = parsePage(params.get('page'))
  const query = useShowcase({ serviceType: kind, pageNum: page, pageSize: SHOWCASE_PAGE_SIZE })
  const data = query.data
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1

  const go = (next: { kind?: GenerationKind; page?: number }) => {
    const nextKind = next.kind ?? kind
    const nextPage = next.page ?? 1
    const search = new URLSearchParams()
    if (nextKind !== 'bodySwap') search.set('service', nextKind)
    if (nextPage > 1) search.set('page', String(nextPage))
    setParams(search)
    window.scrollTo?.({ top: 0 })
  }

  let body
  if (query.isPending) {
    body = <LoadingBlock label="Loading the showcase…" />
  } else if (query.isError && !data) {
    body = (
      <LoadError
        title="The showcase could not be loaded."
        testId="showcase-error"
        error={query.error}
        onRetry={() => void query.refetch()}
        retryLabel="Try again"
      />
    )
  } else if (!data || data.items.length === 0) {
    body = (
      <div className="empty-state" data-testid="showcase-empty">
        <p className="empty-state__title">
          {page > 1 ? 'There is nothing on this page.' : `No ${kindLabel(kind).toLowerCase()} examples yet.`}
        </p>
        <p>Be the first: create an image and share it to the showcase from My Images.</p>
        {page > 1 ? (
          <button type="button" className="btn btn--secondary" onClick={() => go({ page: 1 })}>
            Back to the first page
          </button>
        ) : (
          <TryIt />
        )}
      </div>
    )
  } else {
    body = (
      <>
        <ul className={`${styles.showcaseGrid}${query.isPlaceholderData ? ` ${styles.showcaseGridStale}` : ''}`} aria-busy={query.isFetching}>
          {data.items.map((pair, i) => (
            <PairCard key={pair.taskId} pair={pair} index={(page - 1) * data.pageSize + i + 1} first={i === 0} />
          ))}
        </ul>
        {pages > 1 && (
          <nav className="pager" aria-label="Showcase pages">
            <button
              type="button"
              className="btn btn--secondary btn--small"
              disabled={page <= 1}
              onClick={() => go({ page: page - 1 })}
              data-testid="showcase-prev"
            >
              <IconArrowLeft size={16} /> Previous
            </button>
            <span className="pager__info" data-testid="showcase-page">
              {query.isPlaceholderData && <Spinner label="Loading the page" />} Page {page} of {pages}
            </span>
            <button
              type="button"
              className="btn btn--secondary btn--small"
              disabled={page >= pages}
              onClick={() => go({ page: page + 1 })}
              data-testid="showcase-next"
            >
              Next <IconArrowRight size={16} />
            </button>
          </nav>
        )}
        {query.isError && (
          <p className="field-error" role="alert">
            {errorMessage(query.error)}
          </p>
        )}
      </>
    )
  }

  return (
    <div className="page">
      <header className="page-header page-header--row">
        <div>
          <h1>Showcase</h1>
          <p className="page-header__sub">
            Real results from MetaModel: the photo that went in and the image that came out. Drag across a picture to
            compare.
          </p>
        </div>
        <TryIt />
      </header>
      <div className={styles.showcaseSwitch} role="group" aria-label="Service">
        {SHOWCASE_KINDS.map((s) => (
          <button
            key={s.value}
            type="button"
            className={`chip${s.value === kind ? ' chip--active' : ''}`}
            aria-pressed={s.value === kind}
            onClick={() => s.value !== kind && go({ kind: s.value })}
            data-testid={`showcase-service-${s.value}`}
          >
            {s.label}
          </button>
        ))}
        {data && !query.isPlaceholderData && data.total > 0 && (
          <span className={`muted ${styles.showcaseCount}`} data-testid="showcase-total">
            {data.total} {data.total === 1 ? 'example' : 'examples'}
          </span>
        )}
      </div>
      {body}
    </div>
  )
}
