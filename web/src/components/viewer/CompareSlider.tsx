import { useId, useState, type CSSProperties } from 'react'
import styles from './CompareSlider.module.css'

export interface CompareSliderProps {
  before: string
  after: string
  /** What the pair shows, for the images' alternative texts. */
  label: string
  /** Fill the container (the viewer) instead of a 3:4 frame. */
  fill?: boolean
  /** Load the images at once (the viewer, the landing page) rather than lazily (grids). */
  eager?: boolean
  /**
   * The page's largest image (its LCP): loaded at once and ahead of everything else the page
   * fetches (fetchpriority="high"). Lazy, it waited for layout; at default priority, behind the
   * page's scripts (Lighthouse: 'LCP request discovery', issue 39).
   */
  priority?: boolean
  testId?: string
  /** data-testid of each image: `${imageTestId}-before`, `${imageTestId}-after`. */
  imageTestId?: string
}

/**
 * The input and the output in one frame: the output is revealed from the right as far as the
 * slider says. A native range input does the work (keyboard, touch, screen readers); it is
 * laid over the whole frame so a tap or a drag anywhere moves the divider. Both images are
 * contained (never cropped), landscape and portrait alike.
 */
export function CompareSlider({
  before,
  after,
  label,
  fill = false,
  eager = false,
  priority = false,
  testId,
  imageTestId,
}: CompareSliderProps) {
  const [position, setPosition] = useState(50)
  const id = useId()
  const loading = eager || priority ? 'eager' : 'lazy'
  const fetchPriority = priority ? 'high' : undefined
  return (
    <div
      className={fill ? `${styles.compare} ${styles.compareFill}` : styles.compare}
      style={{ '--pos': `${position}%` } as CSSProperties}
      data-testid={testId}
    >
      <img
        className={styles.compareImg}
        src={before}
        alt={`Before: ${label}`}
        loading={loading}
        fetchPriority={fetchPriority}
        decoding="async"
        draggable={false}
        data-testid={imageTestId ? `${imageTestId}-before` : undefined}
      />
      <img
        className={`${styles.compareImg} ${styles.compareImgAfter}`}
        src={after}
        alt={`After: ${label}`}
        loading={loading}
        fetchPriority={fetchPriority}
        decoding="async"
        draggable={false}
        data-testid={imageTestId ? `${imageTestId}-after` : undefined}
      />
      <span className={styles.compareDivider} aria-hidden="true">
        <span className={styles.compareHandle} />
      </span>
      <span className={`${styles.compareTag} ${styles.compareTagBefore}`} aria-hidden="true">
        Before
      </span>
      <span className={`${styles.compareTag} ${styles.compareTagAfter}`} aria-hidden="true">
        After
      </span>
      <label className="visually-hidden" htmlFor={id}>
        Compare before and after: {label}
      </label>
      <input
        id={id}
        className={styles.compareRange}
        type="range"
        min={0}
        max={100}
        value={position}
        onChange={(e) => setPosition(Number(e.target.value))}
        aria-valuetext={`${100 - position}% of the result shown`}
      />
    </div>
  )
}
