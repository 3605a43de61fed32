import { useMemo, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { ZipDownloadButton } from '@/components/ZipDownloadButton'
import { LoadError } from '@/components/ui/LoadError'
import { Alert } from '@/components/ui/Alert'
import { LoadingBlock, Spinner } from '@/components/ui/Spinner'
import { IconArrowLeft, IconArrowRight, IconImages, IconLogin, IconPlus } from '@/components/ui/icons'
import { useAuth } from '@/hooks/useAuth'
import { errorMessage } from '@/lib/api'
import { pluralize } from '@/lib/format'
import { useLibrary, type LibraryFilters } from '../api/getLibrary'
import {
  anyActive,
  downloadable,
  tilesOf,
  LIBRARY_PAGE_SIZE,
  pageCount,
  parsePage,
  parseKind,
  parseStatus,
  KIND_FILTERS,
  STATUS_FILTERS,
  type LibraryTile,
} from '../generations'
import { orderedSelection, prune, selectionState, toggle, toggleAll, type Selection } from '../selection'
import { DeleteDialog } from './DeleteDialog'
import { ImageTile } from './ImageTile'
import { ImageViewer } from './ImageViewer'
import styles from '../library.module.css'

function GuestPanel() {
  const { openLoginPopup } = useAuth()
  return (
    <div className="page">
      <header className="page-header">
        <h1>My Images</h1>
      </header>
      <div className="empty-state" data-testid="library-guest">
        <IconImages size={32} />
        <p className="empty-state__title">Log in to see your images</p>
        <p className={`muted ${styles.libGuestText}`}>
          With an account, every image you generate is kept here: open it full size, download the original, give
          feedback, and download several at once as one ZIP. Guest images stay only in the tab that made them.
        </p>
        <div className={styles.libGuestActions}>
          <button type="button" className="btn btn--primary" onClick={() => openLoginPopup()} data-testid="library-login">
            <IconLogin size={18} /> Login
          </button>
          <Link to="/upload-images" className="btn btn--secondary">
            Create New Image
          </Link>
        </div>
      </div>
    </div>
  )
}

export function MyImagesPage() {
  const { user, isAuthenticated } = useAuth()
  if (!isAuthenticated || !user?.userEmail) return <GuestPanel />
  return <Library userEmail={user.userEmail} />
}

function Library({ userEmail }: { userEmail: string }) {
  const [params, setParams] = useSearchParams()
  const filters: LibraryFilters = {
    kind: parseKind(params.get('service')),
    status: parseStatus(params.get('status')),
    page: parsePage(params.get('page')),
  }
  const list = useLibrary(userEmail, filters)
  const [chosen, setChosen] = useState<Selection>(() => new Set())
  const [viewing, setViewing] = useState<string | null>(null)
  // The image whose trash icon was clicked, with its name on the page.
  const [deleting, setDeleting] = useState<{ tile: LibraryTile; name: string } | null>(null)

  const generations = useMemo(() => list.data?.items ?? [], [list.data])
  const tiles = useMemo(() => tilesOf(generations), [generations])
  const selectable = useMemo(() => tiles.filter((tile) => downloadable(tile.image)).map((tile) => tile.image.taskId), [tiles])
  // Only what is on screen and downloadable can be chosen (a delete or a filter drops the rest).
  const selection = prune(chosen, selectable)
  const selectedIds = orderedSelection(selection, selectable)
  const allState = selectionState(selection, selectable)
  // The viewer walks through the finished images of the page, in the grid's order.
  const viewable = useMemo(() => tiles.filter((tile) => downloadable(tile.image)), [tiles])
  const viewed = viewing ? viewable.find((tile) => tile.image.taskId === viewing) : undefined

  const total = list.data?.total ?? 0
  const pages = pageCount(total, LIBRARY_PAGE_SIZE)
  const filtered = Boolean(filters.kind || filters.status)
  const live = anyActive(generations)

  const update = (changes: Partial<Record<'service' | 'status' | 'page', string>>) => {
    const next = new URLSearchParams(params)
    for (const [key, value] of Object.entries(changes)) {
      if (value && !(key === 'page' && value === '1')) next.set(key, value)
      else next.delete(key)
    }
    // A new filter starts at the first page.
    if (!('page' in changes)) next.delete('page')
    setParams(next)
  }

  return (
    <div className="page">
      <header className="page-header page-header--row">
        <div>
          <h1>My Images</h1>
          <p className="page-header__sub">
            Everything you generated with your account. {total > 0 && <span data-testid="library-total">{pluralize(total, 'generation')}</span>}
          </p>
        </div>
        <Link to="/upload-images" className="btn btn--primary">
          <IconPlus size={18} /> Create New Image
        </Link>
      </header>

      <div className={styles.libToolbar} role="toolbar" aria-label="Filters">
        <div className={styles.libFilters} role="group" aria-label="Service">
          {KIND_FILTERS.map((f) => (
            <button
              key={f.value || 'all'}
              type="button"
              className={`chip${filters.kind === f.value ? ' chip--active' : ''}`}
              aria-pressed={filters.kind === f.value}
              onClick={() => update({ service: f.value })}
              data-testid={`filter-service-${f.value || 'all'}`}
            >
              {f.label}
            </button>
          ))}
        </div>
        <label className={styles.libStatusFilter}>
          <span className="visually-hidden">Status</span>
          <select
            className="input"
            value={filters.status}
            onChange={(e) => update({ status: e.target.value })}
            data-testid="filter-status"
          >
            {STATUS_FILTERS.map((f) => (
              <option key={f.value || 'all'} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        {live && (
          <span className={styles.libLive} role="status" data-testid="library-live">
            <Spinner label="Updating" /> Updating while images are generated…
          </span>
        )}
      </div>

      {selectable.length > 0 && (
        <div className={styles.libSelectbar} data-testid="library-selectbar">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={allState === 'all'}
              ref={(el) => {
                if (el) el.indeterminate = allState === 'some'
              }}
              onChange={() => setChosen(toggleAll(selection, selectable))}
              data-testid="library-select-all"
            />
            Select all on this page
          </label>
          <span className="muted" aria-live="polite" data-testid="library-selected-count">
            {selectedIds.length ? `${pluralize(selectedIds.length, 'image')} selected` : 'Select images to download them as one ZIP'}
          </span>
          {selectedIds.length > 0 && (
            <button type="button" className="link-btn" onClick={() => setChosen(new Set())}>
              Clear
            </button>
          )}
          <div className={styles.libSelectbarZip}>
            <ZipDownloadButton
              imageIds={selectedIds}
              label={selectedIds.length ? `Download ZIP (${selectedIds.length})` : 'Download ZIP'}
              testId="library-zip"
            />
          </div>
        </div>
      )}

      {list.isPending ? (
        <LoadingBlock label="Loading your images…" />
      ) : list.isError && !list.data ? (
        <LoadError
          title="Your images could not be loaded"
          testId="library-error"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : generations.length === 0 ? (
        filtered || filters.page > 1 ? (
          <div className="empty-state" data-testid="library-empty-filtered">
            <p className="empty-state__title">Nothing here</p>
            <p className="muted">No generations match these filters{filters.page > 1 ? ' on this page' : ''}.</p>
            <button type="button" className="btn btn--secondary" onClick={() => setParams(new URLSearchParams())}>
              Show everything
            </button>
          </div>
        ) : (
          <div className="empty-state" data-testid="library-empty">
            <IconImages size={32} />
            <p className="empty-state__title">No images yet</p>
            <p className="muted">Images you generate while logged in appear here.</p>
            <Link to="/upload-images" className="btn btn--primary">
              Create New Image
            </Link>
          </div>
        )
      ) : (
        <>
          {list.isError && (
            <Alert tone="warning" testId="library-refresh-error">
              Could not refresh: {errorMessage(list.error)}
            </Alert>
          )}
          <ul className={styles.libGrid} data-testid="library-grid" aria-busy={list.isFetching}>
            {tiles.map((tile, i) => (
              <ImageTile
                key={tile.image.taskId}
                tile={tile}
                number={i + 1}
                selected={selection.has(tile.image.taskId)}
                onToggleSelect={() => setChosen(toggle(selection, tile.image.taskId))}
                onOpen={() => setViewing(tile.image.taskId)}
                onDelete={() => setDeleting({ tile, name: `image ${i + 1}` })}
              />
            ))}
          </ul>
          {pages > 1 && (
            <nav className="pager" aria-label="Pages">
              <button
                type="button"
                className="btn btn--secondary btn--small"
                disabled={filters.page <= 1}
                onClick={() => update({ page: String(filters.page - 1) })}
              >
                <IconArrowLeft size={16} /> Previous
              </button>
              <span className="pager__info" data-testid="library-page">
                Page {filters.page} of {pages}
              </span>
              <button
                type="button"
                className="btn btn--secondary btn--small"
                disabled={filters.page >= pages}
                onClick={() => update({ page: String(filters.page + 1) })}
              >
                Next <IconArrowRight size={16} />
              </button>
            </nav>
          )}
        </>
      )}

      {viewed && <ImageViewer tiles={viewable} imageId={viewed.image.taskId} onNavigate={setViewing} onClose={() => setViewing(null)} />}
      {deleting && (
        <DeleteDialog
          tile={deleting.tile}
          name={deleting.name}
          onClose={() => setDeleting(null)}
          onDeleted={(gone) => {
            setChosen((s) => prune(s, selectable.filter((id) => !gone.includes(id))))
            setDeleting(null)
          }}
        />
      )}
    </div>
  )
}
