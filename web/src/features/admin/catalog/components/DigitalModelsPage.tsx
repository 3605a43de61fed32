import { useId } from 'react'
import { Link, useSearchParams } from 'react-router'
import { LoadError } from '@/components/ui/LoadError'
import { LoadingBlock } from '@/components/ui/Spinner'
import { IconArrowLeft } from '@/components/ui/icons'
import { useAuth } from '@/hooks/useAuth'
import { useIsAdmin } from '@/hooks/useIsAdmin'
import { ApiError } from '@/lib/api'
import { useCatalogItems } from '../api/getCatalogItems'
import type { CatalogKind } from '../api/keys'
import { CatalogItemCard } from './CatalogItemCard'
import { UploadForm } from './UploadForm'
import styles from '../catalog.module.css'

const TABS: Array<{ kind: CatalogKind; label: string; noun: string }> = [
  { kind: 'model', label: 'Models', noun: 'digital models' },
  { kind: 'background', label: 'Backgrounds', noun: 'backgrounds' },
]

function AdminsOnly() {
  return (
    <div className="empty-state" data-testid="catalog-admins-only">
      <p className="empty-state__title">Admins only</p>
      <p>This page is for operators. Ask an admin to grant your account the admin role.</p>
      <Link to="/" className="btn btn--secondary">
        Back to the app
      </Link>
    </div>
  )
}

function CatalogPanel({ kind, noun }: { kind: CatalogKind; noun: string }) {
  const { data, error, isPending, isFetching, refetch } = useCatalogItems(kind)

  if (error instanceof ApiError && error.status === 403) return <AdminsOnly />
  if (error && !isFetching) {
    return (
      <LoadError
        title={`The ${noun} could not be loaded`}
        error={error}
        onRetry={() => void refetch()}
        retryLabel="Try again"
      />
    )
  }
  if (isPending) return <LoadingBlock label={`Loading ${noun}…`} />
  if (!data) return null

  const categories = [...new Set(data.items.map((i) => i.category).filter(Boolean))].sort()
  const published = data.items.filter((i) => i.published).length

  return (
    <div className={styles.catalogPanel}>
      <section className={`card ${styles.catalogPanelUpload}`}>
        <UploadForm kind={kind} categories={categories} />
      </section>
      <section aria-label={`All ${noun}`}>
        <p className={`muted ${styles.catalogPanelCount}`} aria-live="polite">
          {data.items.length} {noun}, {published} published. The picker shows published public ones in this order.
        </p>
        {data.items.length === 0 ? (
          <div className="empty-state" data-testid="catalog-empty">
            <p className="empty-state__title">No {noun} yet</p>
            <p>Upload the first one with the form.</p>
          </div>
        ) : (
          <ul className={styles.catalogGrid} data-testid="catalog-grid">
            {data.items.map((item, index) => (
              <CatalogItemCard
                key={item._id}
                item={item}
                kind={kind}
                first={index === 0}
                last={index === data.items.length - 1}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}

/** Published and draft counts of the kind shown, for the header (the panel's list, shared). */
function CatalogCounts({ kind, noun }: { kind: CatalogKind; noun: string }) {
  const { data } = useCatalogItems(kind)
  if (!data) return null
  const published = data.items.filter((i) => i.published).length
  const drafts = data.items.length - published
  return (
    <dl className={styles.catalogCounts} aria-label={`The ${noun}`} data-testid="catalog-counts">
      <div className={styles.catalogCount}>
        <dt>Published</dt>
        <dd data-testid="catalog-count-published">{published}</dd>
      </div>
      <div className={styles.catalogCount}>
        <dt>{drafts === 1 ? 'Draft' : 'Drafts'}</dt>
        <dd data-testid="catalog-count-draft">{drafts}</dd>
      </div>
    </dl>
  )
}

/** /digital-models: operators manage the catalog of digital models and backgrounds. Outside
 *  the app shell (spec §2: no header or sidebar here), so it has its own header. */
export function DigitalModelsPage() {
  const { isAuthenticated, openLoginPopup } = useAuth()
  // The role decides what to show; the server answers 403 to a non-admin in any case.
  const { isAdmin, known, failed } = useIsAdmin()
  const [params, setParams] = useSearchParams()
  const titleId = useId()
  const active = TABS.find((t) => t.kind === params.get('tab')) ?? TABS[0]!

  return (
    <div className={styles.catalogAdmin}>
      <header className={styles.catalogAdminHeader}>
        <Link to="/" className="btn btn--ghost btn--small" data-testid="catalog-back">
          <IconArrowLeft size={16} /> Back to the app
        </Link>
        <div className={styles.catalogAdminHeading}>
          <div>
            <p className={styles.catalogAdminEyebrow}>Operator · catalog</p>
            <h1 id={titleId}>Digital models</h1>
            <p className="page-header__sub">
              Upload, describe, publish and order the models and backgrounds users pick from when they create an image.
            </p>
          </div>
          {isAuthenticated && isAdmin && <CatalogCounts kind={active.kind} noun={active.noun} />}
        </div>
      </header>
      <main aria-labelledby={titleId}>
        {!isAuthenticated ? (
          <div className="empty-state" data-testid="catalog-login">
            <p className="empty-state__title">Log in to manage the catalog</p>
            <p>This page is for operators. Log in with an admin account.</p>
            <button type="button" className="btn btn--primary" onClick={() => openLoginPopup()}>
              Log in
            </button>
          </div>
        ) : !known && !failed ? (
          <LoadingBlock label="Loading…" />
        ) : known && !isAdmin ? (
          <AdminsOnly />
        ) : (
          <>
            <div className={styles.catalogTabs} role="tablist" aria-label="Catalog">
              {TABS.map((tab) => (
                <button
                  key={tab.kind}
                  type="button"
                  role="tab"
                  id={`catalog-tab-${tab.kind}`}
                  aria-selected={tab.kind === active.kind}
                  aria-controls="catalog-tabpanel"
                  className={`chip${tab.kind === active.kind ? ' chip--active' : ''}`}
                  onClick={() => setParams(tab.kind === 'model' ? {} : { tab: tab.kind }, { replace: true })}
                  data-testid={`catalog-tab-${tab.kind}`}
                >
                  {tab.label}
                </button>
              ))}
            </div>
            <div id="catalog-tabpanel" role="tabpanel" aria-labelledby={`catalog-tab-${active.kind}`}>
              <CatalogPanel key={active.kind} kind={active.kind} noun={active.noun} />
            </div>
          </>
        )}
      </main>
    </div>
  )
}
