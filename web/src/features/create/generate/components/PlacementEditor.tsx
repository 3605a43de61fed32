import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Dialog } from '@/components/ui/Dialog'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import type { GenerationImage, ImageOutput } from '@/types/api'
import { useAdjustPlacement } from '../api/adjustPlacement'
import { useBackgroundThumbnail } from '../api/backgroundThumbnail'
import {
  dragged,
  isAdjusted,
  NO_PLACEMENT,
  normalise,
  previewTransform,
  SCALE_MAX,
  SCALE_MIN,
  type Placement,
} from '../placement'
import styles from './PlacementEditor.module.css'

interface PlacementEditorProps {
  generationId: string
  backgroundId: string
  /** The image being adjusted: the original or one of its versions (its placement is the start). */
  image: GenerationImage
  /** The original's output: the subject where the engine put it, moved in the preview. */
  original: ImageOutput
  /** Names the image, e.g. "image 2". */
  imageLabel: string
  onClose: () => void
}

const KEY_STEP = 0.01

function describe(p: Placement): string {
  const parts = []
  if (p.x) parts.push(`${Math.round(Math.abs(p.x) * 100)}% ${p.x > 0 ? 'right' : 'left'}`)
  if (p.y) parts.push(`${Math.round(Math.abs(p.y) * 100)}% ${p.y > 0 ? 'down' : 'up'}`)
  const moved = parts.length ? `Moved ${parts.join(', ')}` : 'Not moved'
  return `${moved}; size ×${p.scale.toFixed(2)}`
}

/**
 * Move (drag, or the arrow keys) and scale (the slider) the subject over the chosen background,
 * previewed over the background's thumbnail, then re-render the image for free: a new version
 * of the same generation, which the output page shows once it is ready.
 */
export function PlacementEditor({ generationId, backgroundId, image, original, imageLabel, onClose }: PlacementEditorProps) {
  const [placement, setPlacement] = useState<Placement>(() => normalise(image.placement ?? NO_PLACEMENT))
  // The preview has the output's shape, so a fraction of it is a fraction of the image.
  const [aspect, setAspect] = useState(3 / 4)
  const drag = useRef<{ pointer: number; x: number; y: number; start: Placement } | null>(null)
  const stage = useRef<HTMLDivElement>(null)
  const sizeId = useId()
  const rerender = useAdjustPlacement(generationId)
  const backdrop = useBackgroundThumbnail(backgroundId)

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = { pointer: e.pointerId, x: e.clientX, y: e.clientY, start: placement }
    e.currentTarget.setPointerCapture?.(e.pointerId)
  }
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const from = drag.current
    if (!from || from.pointer !== e.pointerId || !stage.current) return
    const { width, height } = stage.current.getBoundingClientRect()
    setPlacement(dragged(from.start, e.clientX - from.x, e.clientY - from.y, width, height))
  }
  const onPointerUp = () => {
    drag.current = null
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? KEY_STEP * 5 : KEY_STEP
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    }
    const move = moves[e.key]
    if (!move) return
    e.preventDefault()
    setPlacement((p) => normalise({ ...p, x: p.x + move[0], y: p.y + move[1] }))
  }

  const submit = () => {
    rerender.mutate(
      { imageId: image.taskId, placement },
      {
        onSuccess: (made) => {
          const left = made.remaining === 1 ? '1 more' : `${made.remaining} more`
          toast.success(`Re-rendering ${imageLabel}: the new version shows below in a moment. Free of charge (${left} allowed).`)
          onClose()
        },
      },
    )
  }

  return (
    <Dialog title={`Adjust the placement of ${imageLabel}`} onClose={onClose} testId="placement-editor" className={styles.placement}>
      <p className="muted">
        Drag the picture to move the subject, and use the slider to change its size. The preview moves the whole picture;
        the re-render moves only the subject, onto the background. Re-rendering is free.
      </p>
      <div
        ref={stage}
        className={backdrop ? styles.stage : `${styles.stage} ${styles.stagePlain}`}
        data-testid="placement-stage"
        // --aspect lets the stylesheet shrink the stage on short screens without distorting it.
        style={{ aspectRatio: String(aspect), ['--aspect' as string]: String(aspect) }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        {backdrop ? (
          <img src={backdrop} alt="" className={styles.backdrop} data-testid="placement-backdrop" />
        ) : backgroundId === 'white' ? null : (
          <img src={original.thumbnailUrl || original.url} alt="" className={`${styles.backdrop} ${styles.backdropBlurred}`} />
        )}
        <div
          className={styles.subject}
          style={{ transform: previewTransform(placement) }}
          data-testid="placement-subject"
          data-x={placement.x}
          data-y={placement.y}
          data-scale={placement.scale}
          role="group"
          tabIndex={0}
          aria-label={`The subject of ${imageLabel}: drag it, or move it with the arrow keys. ${describe(placement)}.`}
          onKeyDown={onKeyDown}
        >
          <img
            src={original.thumbnailUrl || original.url}
            alt=""
            draggable={false}
            onLoad={(e) => {
              const { naturalWidth, naturalHeight } = e.currentTarget
              if (naturalWidth > 0 && naturalHeight > 0) setAspect(naturalWidth / naturalHeight)
            }}
          />
        </div>
      </div>

      <div className={styles.controls}>
        <label htmlFor={sizeId} className={styles.size}>
          Size <span data-testid="placement-scale">×{placement.scale.toFixed(2)}</span>
        </label>
        <input
          id={sizeId}
          type="range"
          min={SCALE_MIN}
          max={SCALE_MAX}
          step={0.05}
          value={placement.scale}
          onChange={(e) => setPlacement((p) => normalise({ ...p, scale: Number(e.target.value) }))}
          className="range"
          // The filled part of the track, for the product's slider style (global .range).
          style={{ ['--fill' as string]: `${((placement.scale - SCALE_MIN) / (SCALE_MAX - SCALE_MIN)) * 100}%` }}
          data-testid="placement-size"
        />
        <p className="muted" aria-live="polite" data-testid="placement-summary">
          {describe(placement)}
        </p>
      </div>

      {rerender.isError && (
        <Alert tone="error" title="The image could not be re-rendered" testId="placement-error">
          {errorMessage(rerender.error)}
        </Alert>
      )}

      <div className={styles.actions}>
        <button type="button" className="btn btn--ghost" onClick={() => setPlacement(NO_PLACEMENT)} disabled={!isAdjusted(placement)} data-testid="placement-reset">
          Reset
        </button>
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn--primary" onClick={submit} disabled={rerender.isPending} data-testid="placement-rerender">
          {rerender.isPending ? 'Starting…' : 'Re-render'}
        </button>
      </div>
    </Dialog>
  )
}
