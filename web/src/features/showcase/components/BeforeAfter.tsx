import { useId, useState, type CSSProperties } from 'react'
import styles from '../showcase.module.css'

interface BeforeAfterProps {
  before: string
  after: string
  /** What the pair shows, for the images' alternative texts. */
  label: string
}

/**
 * The input and the output in one frame: the output is revealed from the right as far as the
 * slider says. A native range input does the work (keyboard, touch, screen readers); it is
 * laid over the whole frame so a tap or a drag anywhere moves the divider.
 */
export function BeforeAfter({ before, after, label }: BeforeAfterProps) {
  const [position, setPosition] = useState(50)
  const id = useId()
  return (
    <div className={styles.compare} style={{ '--pos': `${position}%` } as CSSProperties} data-testid="showcase-compare">
      <img className={styles.compareImg} src={before} alt={`Before: ${label}`} loading="lazy" decoding="async" />
      <img
        className={`${styles.compareImg} ${styles.compareImgAfter}`}
        src={after}
        alt={`After: ${label}`}
        loading="lazy"
        decoding="async"
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
