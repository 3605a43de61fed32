import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react'
import { DownloadButton } from '@/components/DownloadButton'
import { CredentialsPanel } from '@/components/credentials/CredentialsPanel'
import type { CatalogNames } from '@/components/credentials/credentials'
import { Dialog } from '@/components/ui/Dialog'
import { IconArrowLeft, IconArrowRight } from '@/components/ui/icons'
import type { ContentCredentials } from '@/types/api'
import { CompareSlider } from './CompareSlider'
import { clampPan, clampZoom, containedSize, ORIGIN, TOGGLE_ZOOM, wheelZoom, zoomIn, zoomOut, type Point } from './zoom'
import styles from './ImageViewer.module.css'

/** One version of an image (as generated, edited…): a switch picks it when there are several. */
export interface ViewerVersion {
  label: string
  url: string
  /** The image's alternative text. */
  alt: string
  /** The Content Credentials signed into this version's file (none: nothing is shown). */
  credentials?: ContentCredentials | null
}

export interface ViewerDownload {
  url: string
  storageKey?: string
  fileBaseName: string
  /** The button's accessible name. */
  label: string
  text: string
}

export interface ViewerItem {
  id: string
  /** The dialog's title while this image is shown. */
  title: string
  versions: readonly ViewerVersion[]
  /** The input the image was made from: compare shows it under the output, with a slider. */
  inputUrl?: string | null
  downloads: readonly ViewerDownload[]
  /** Catalog names the page knows, for the credentials' ingredients (ids otherwise). */
  catalogNames?: CatalogNames
}

interface ImageViewerProps {
  /** The list the viewer was opened from: ← and → walk through it. */
  items: readonly ViewerItem[]
  index: number
  onIndexChange: (index: number) => void
  onClose: () => void
  testId?: string
}

const FIT = { zoom: 1, pan: ORIGIN }
const DOUBLE_TAP_MS = 300
const SWIPE_PX = 60

interface Drag {
  pointerId: number
  start: Point
  pan: Point
  moved: boolean
}

const NOT_TYPED = ['range', 'checkbox', 'radio', 'button', 'submit', 'reset']

/** Whether a key belongs to the focused control: text typed into a field, an arrow of a slider. */
function ownKey(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true
  if (!(target instanceof HTMLInputElement)) return false
  if (target.type === 'range') return key.startsWith('Arrow') || key === 'Home' || key === 'End'
  return !NOT_TYPED.includes(target.type)
}

/**
 * The large viewer every output opens in: the image as large as the window allows (contained,
 * never cropped), zoom (buttons, wheel, double-click or double tap, drag to pan), a before/after
 * compare with the input, and the list it was opened from (← →, "3 of 12").
 * Keys: ← → previous/next, + − zoom, 0 fit, C compare, Escape closes.
 */
export function ImageViewer({ items, index, onIndexChange, onClose, testId = 'image-viewer' }: ImageViewerProps) {
  const count = items.length
  const at = Math.min(Math.max(0, index), Math.max(0, count - 1))
  const item = items[at]
  const [shownId, setShownId] = useState(item?.id)
  const [versionIndex, setVersionIndex] = useState(0)
  const [view, setView] = useState<{ zoom: number; pan: Point }>(FIT)
  const { zoom, pan } = view
  const [compare, setCompare] = useState(false)
  const [dragging, setDragging] = useState(false)
  const stageRef = useRef<HTMLDivElement>(null)
  const imageRef = useRef<HTMLImageElement>(null)
  const drag = useRef<Drag | null>(null)
  const lastTap = useRef(0)
  const lastTouchToggle = useRef(0)

  // Another image: back to fit, its first version.
  if (item && shownId !== item.id) {
    setShownId(item.id)
    setVersionIndex(0)
    setView(FIT)
  }

  const version = item?.versions[Math.min(versionIndex, item.versions.length - 1)]
  const canCompare = Boolean(item?.inputUrl && version)
  const comparing = compare && canCompare
  const hasPrev = at > 0
  const hasNext = at < count - 1

  const bounded = useCallback((next: Point, z: number): Point => {
    const stage = stageRef.current
    const img = imageRef.current
    if (!stage || !img) return z === 1 ? ORIGIN : next
    const box = { width: stage.clientWidth, height: stage.clientHeight }
    const content = containedSize(box, { width: img.naturalWidth, height: img.naturalHeight })
    return clampPan(next, z, box, content)
  }, [])

  const applyZoom = useCallback(
    (next: (z: number) => number) => {
      setView((v) => {
        const z = clampZoom(next(v.zoom))
        return z === 1 ? FIT : { zoom: z, pan: bounded(v.pan, z) }
      })
    },
    [bounded],
  )

  const go = useCallback(
    (delta: number) => {
      const next = at + delta
      if (next >= 0 && next < count) onIndexChange(next)
    },
    [at, count, onIndexChange],
  )

  // The viewer's keys; the Dialog handles Escape (close) and Tab (focus stays inside).
  const keys = useRef<(e: KeyboardEvent) => void>(() => {})
  useEffect(() => {
    keys.current = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || ownKey(e.target, e.key)) return
      const handled = (() => {
        switch (e.key) {
          case 'ArrowLeft':
            go(-1)
            return true
          case 'ArrowRight':
            go(1)
            return true
          case '+':
          case '=':
            if (!comparing) applyZoom(zoomIn)
            return true
          case '-':
          case '_':
            if (!comparing) applyZoom(zoomOut)
            return true
          case '0':
            applyZoom(() => 1)
            return true
          case 'c':
          case 'C':
            if (canCompare) {
              applyZoom(() => 1)
              setCompare((c) => !c)
            }
            return true
          default:
            return false
        }
      })()
      if (handled) e.preventDefault()
    }
  })
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => keys.current(e)
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  // The wheel zooms (a native listener: React's wheel listeners are passive and cannot cancel).
  useEffect(() => {
    const stage = stageRef.current
    if (!stage || comparing) return
    const onWheel = (e: WheelEvent) => {
      e.preventDefault()
      applyZoom((z) => wheelZoom(z, e.deltaY))
    }
    stage.addEventListener('wheel', onWheel, { passive: false })
    return () => stage.removeEventListener('wheel', onWheel)
  }, [comparing, applyZoom])

  const toggleZoom = () => applyZoom((z) => (z > 1 ? 1 : TOGGLE_ZOOM))

  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (comparing || (e.pointerType === 'mouse' && e.button !== 0)) return
    drag.current = { pointerId: e.pointerId, start: { x: e.clientX, y: e.clientY }, pan, moved: false }
    if (zoom > 1) {
      e.currentTarget.setPointerCapture?.(e.pointerId)
      setDragging(true)
    }
  }
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current
    if (!d || d.pointerId !== e.pointerId) return
    const dx = e.clientX - d.start.x
    const dy = e.clientY - d.start.y
    if (Math.abs(dx) + Math.abs(dy) > 4) d.moved = true
    if (zoom > 1) setView({ zoom, pan: bounded({ x: d.pan.x + dx, y: d.pan.y + dy }, zoom) })
  }
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current
    drag.current = null
    setDragging(false)
    if (!d || d.pointerId !== e.pointerId || e.pointerType !== 'touch') return
    const dx = e.clientX - d.start.x
    const dy = e.clientY - d.start.y
    // A swipe at fit goes to the previous/next image; a double tap toggles 2×.
    if (zoom === 1 && Math.abs(dx) > SWIPE_PX && Math.abs(dy) < SWIPE_PX) {
      go(dx < 0 ? 1 : -1)
      return
    }
    if (d.moved) return
    const now = Date.now()
    if (now - lastTap.current < DOUBLE_TAP_MS) {
      lastTap.current = 0
      lastTouchToggle.current = now
      toggleZoom()
    } else {
      lastTap.current = now
    }
  }
  const onDoubleClick = () => {
    // A double tap was already handled by the pointer events.
    if (comparing || Date.now() - lastTouchToggle.current < 600) return
    toggleZoom()
  }

  if (!item || !version) return null
  const percent = `${Math.round(zoom * 100)}%`

  return (
    <Dialog title={item.title} titleClassName={styles.title} className={styles.panel} onClose={onClose} testId={testId}>
      <div className={styles.toolbar} role="toolbar" aria-label="Viewer">
        {count > 1 && (
          <span className={styles.counter} aria-live="polite" data-testid="viewer-counter">
            {at + 1} of {count}
          </span>
        )}
        <div className={styles.group} role="group" aria-label="Zoom">
          <button
            type="button"
            className={styles.tool}
            onClick={() => applyZoom(zoomOut)}
            disabled={comparing || zoom <= 1}
            aria-label="Zoom out"
            title="Zoom out (−)"
            data-testid="viewer-zoom-out"
          >
            <span aria-hidden="true">−</span>
          </button>
          <output className={styles.zoomLevel} aria-live="polite" aria-label={`Zoom ${percent}`} data-testid="viewer-zoom">
            {percent}
          </output>
          <button
            type="button"
            className={styles.tool}
            onClick={() => applyZoom(zoomIn)}
            disabled={comparing || zoom >= 4}
            aria-label="Zoom in"
            title="Zoom in (+)"
            data-testid="viewer-zoom-in"
          >
            <span aria-hidden="true">+</span>
          </button>
          <button
            type="button"
            className={`${styles.tool} ${styles.toolText}`}
            onClick={() => applyZoom(() => 1)}
            disabled={zoom === 1}
            aria-label="Fit to the window"
            title="Fit (0)"
            data-testid="viewer-zoom-fit"
          >
            Fit
          </button>
        </div>
        {canCompare && (
          <button
            type="button"
            className={`chip${comparing ? ' chip--active' : ''}`}
            aria-pressed={comparing}
            onClick={() => {
              applyZoom(() => 1)
              setCompare((c) => !c)
            }}
            title="Compare with the input (C)"
            data-testid="viewer-compare-toggle"
          >
            Compare with input
          </button>
        )}
        {item.versions.length > 1 && (
          <div className={styles.group} role="group" aria-label="Version" data-testid="viewer-versions">
            {item.versions.map((v, i) => (
              <button
                key={v.label}
                type="button"
                className={`chip${v === version ? ' chip--active' : ''}`}
                aria-pressed={v === version}
                onClick={() => setVersionIndex(i)}
              >
                {v.label}
              </button>
            ))}
          </div>
        )}
      </div>

      <div
        ref={stageRef}
        className={`${styles.stage}${zoom > 1 ? ` ${styles.stageZoomed}` : ''}${dragging ? ` ${styles.stageDragging}` : ''}`}
        data-zoom={zoom}
        data-testid="viewer-stage"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          drag.current = null
          setDragging(false)
        }}
        onDoubleClick={onDoubleClick}
      >
        {comparing && item.inputUrl ? (
          <CompareSlider
            key={`${item.id}-${version.url}`}
            before={item.inputUrl}
            after={version.url}
            label={version.alt}
            fill
            eager
            testId="viewer-compare"
            imageTestId="viewer-compare-image"
          />
        ) : (
          <img
            ref={imageRef}
            className={styles.image}
            src={version.url}
            alt={version.alt}
            draggable={false}
            style={{ transform: `translate(${pan.x}px, ${pan.y}px) scale(${zoom})` }}
            onLoad={() => setView((v) => (v.zoom === 1 ? v : { zoom: v.zoom, pan: bounded(v.pan, v.zoom) }))}
            data-testid="viewer-image"
          />
        )}
        {count > 1 && (
          <>
            <button
              type="button"
              className={`${styles.nav} ${styles.navPrev}`}
              onClick={() => go(-1)}
              disabled={!hasPrev}
              aria-label="Previous image"
              title="Previous (←)"
              data-testid="viewer-prev"
            >
              <IconArrowLeft size={20} />
            </button>
            <button
              type="button"
              className={`${styles.nav} ${styles.navNext}`}
              onClick={() => go(1)}
              disabled={!hasNext}
              aria-label="Next image"
              title="Next (→)"
              data-testid="viewer-next"
            >
              <IconArrowRight size={20} />
            </button>
          </>
        )}
      </div>

      <div className={styles.actions} data-testid="viewer-actions">
        <CredentialsPanel
          key={`${item.id}-${version.url}`}
          credentials={version.credentials}
          catalogNames={item.catalogNames}
          className={styles.credentials}
        />
        {item.downloads.map((d) => (
          <DownloadButton key={d.fileBaseName} url={d.url} storageKey={d.storageKey} fileBaseName={d.fileBaseName} label={d.label} text={d.text} />
        ))}
        <p className={`muted ${styles.hint}`}>
          ← → browse · + − zoom · 0 fit{canCompare ? ' · C compare' : ''} · Esc close
        </p>
      </div>
    </Dialog>
  )
}
