import { useState } from 'react'
import { Link } from 'react-router'
import { useAuth } from '@/hooks/useAuth'
import { ApiError } from '@/lib/api'
import type { GenerationKind } from '@/types/api'
import { useShowcaseCandidates } from '../api/getShowcaseCandidates'
import { CANDIDATES_PAGE_SIZE, CandidateList } from './CandidateList'
import { GenerationLookup } from './GenerationLookup'
import styles from '../admin-showcase.module.css'
import { BrandLink } from '@/components/BrandLink'

/**
 * /admin-showcase, for operators: curate the public showcase among the outputs their owners
 * shared, and attach retouched images to any output. Outside the app shell (spec: no header or
 * sidebar here), with its own header. Guests are asked to log in; other users see "Admins only"
 * (the admin API answers them 403).
 */
export function AdminShowcasePage() {
  const { isAuthenticated } = useAuth()
  return (
    <div className={styles.adminPage} data-testid="admin-showcase-page">
      <header className={styles.adminHeader}>
        <BrandLink className={styles.adminHeaderBrand} />
        <span className={styles.adminHeaderTag}>Admin</span>
        <Link to="/" className={`btn btn--ghost btn--small ${styles.adminHeaderBack}`} data-testid="admin-back">
          ← Back to the app
        </Link>
      </header>
      <main className={styles.adminMain} id="main">
        <div className="page-header">
          <h1>Showcase and edits</h1>
          <p className="page-header__sub">Curate the public showcase and attach retouched images to outputs.</p>
        </div>
        {isAuthenticated ? <AdminShowcaseContent /> : <LoginPrompt />}
      </main>
    </div>
  )
}

function LoginPrompt() {
  const { openLoginPopup } = useAuth()
  return (
    <div className="empty-state" data-testid="admin-login-prompt">
      <p className="empty-state__title">Please log in</p>
      <p>This page is for the operators of MetaModel. Log in with an admin account to continue.</p>
      <button type="button" className="btn btn--primary" onClick={() => openLoginPopup()} data-testid="admin-login">
        Log in
      </button>
    </div>
  )
}

function AdminsOnly({ message }: { message: string }) {
  return (
    <div className="empty-state" data-testid="admin-only">
      <p className="empty-state__title">Admins only</p>
      <p>{message}</p>
      <Link to="/" className="btn btn--secondary">
        Back to the app
      </Link>
    </div>
  )
}

function AdminShowcaseContent() {
  const [kind, setKind] = useState<GenerationKind | 'all'>('all')
  const [page, setPage] = useState(1)
  const candidates = useShowcaseCandidates({
    serviceType: kind === 'all' ? undefined : kind,
    pageNum: page,
    pageSize: CANDIDATES_PAGE_SIZE,
  })
  const error = candidates.error
  if (error instanceof ApiError && error.status === 403) {
    return <AdminsOnly message={error.serverMessage ?? 'Only operators can curate the showcase.'} />
  }
  // A page emptied by curation elsewhere (or a shrinking list): go back to the last page.
  const pages = candidates.data ? Math.max(1, Math.ceil(candidates.data.total / CANDIDATES_PAGE_SIZE)) : 1
  if (candidates.data && !candidates.isPlaceholderData && page > pages) setPage(pages)
  return (
    <>
      <CandidateList
        kind={kind}
        onKindChange={(next) => {
          setKind(next)
          setPage(1)
        }}
        page={page}
        onPageChange={setPage}
        data={candidates.data}
        isPending={candidates.isPending}
        isFetching={candidates.isFetching}
        error={error}
        onRetry={() => void candidates.refetch()}
      />
      <GenerationLookup />
    </>
  )
}
