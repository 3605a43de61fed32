import { Link, useSearchParams } from 'react-router'
import { LoadError } from '@/components/ui/LoadError'
import { IconArrowLeft, IconArrowRight } from '@/components/ui/icons'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import type { GenerationKind } from '@/types/api'
import { useShowcase, type ShowcasePair } from '../api/getShowcase'
import { parsePage, parseService, serviceLabel, SHOWCASE_PAGE_SIZE, SHOWCASE_SERVICES } from '../services'
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
  const label = `${serviceLabel(pair.service)} example ${index}`
  return (
    <li className={`card ${styles.showcaseItem}`} data-testid="showcase-item">
      <BeforeAfter before={pair.inputThumbnailUrl} after={pair.outputThumbnailUrl} label={label} priority={first} />
      <div className={styles.showcaseMeta}>
        <span className={styles.showcaseService}>{serviceLabel(pair.service)}</span>
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
  const serviceType = parseService(params.get('service'))
  const pageNum = parsePage(params.get('page'))
  const query = useShowcase({ serviceType, pageNum, pageSize: SHOWCASE_PAGE_SIZE })
  const data = query.data
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1

  const go = (next: { service?: GenerationKind; page?: number }) => {
    const service = next.service ?? serviceType
    const page = next.page ?? 1
    const search = new URLSearchParams()
    if (service !== 'bodySwap') search.set('service', service)
    if (page > 1) search.set('page', String(page))
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
          {pageNum > 1 ? 'There is nothing on this page.' : `No ${serviceLabel(serviceType).toLowerCase()} examples yet.`}
        </p>
        <p>Be the first: create an image and share it to the showcase from My Images.</p>
        {pageNum > 1 ? (
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
            <PairCard key={pair.taskId} pair={pair} index={(pageNum - 1) * data.pageSize + i + 1} first={i === 0} />
          ))}
        </ul>
        {pages > 1 && (
          <nav className="pager" aria-label="Showcase pages">
            <button
              type="button"
              className="btn btn--secondary btn--small"
              disabled={pageNum <= 1}
              onClick={() => go({ page: pageNum - 1 })}
              data-testid="showcase-prev"
            >
              <IconArrowLeft size={16} /> Previous
            </button>
            <span className="pager__info" data-testid="showcase-page">
              {query.isPlaceholderData && <Spinner label="Loading the page" />} Page {pageNum} of {pages}
            </span>
            <button
              type="button"
              className="btn btn--secondary btn--small"
              disabled={pageNum >= pages}
              onClick={() => go({ page: pageNum + 1 })}
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
        {SHOWCASE_SERVICES.map((s) => (
          <button
            key={s.value}
            type="button"
            className={`chip${s.value === serviceType ? ' chip--active' : ''}`}
            aria-pressed={s.value === serviceType}
            onClick={() => s.value !== serviceType && go({ service: s.value })}
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
