import { useId, useState, type CSSProperties } from 'react'

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
    <div className="compare" style={{ '--pos': `${position}%` } as CSSProperties} data-testid="showcase-compare">
      <img className="compare__img" src={before} alt={`Before: ${label}`} loading="lazy" decoding="async" />
      <img
        className="compare__img compare__img--after"
        src={after}
        alt={`After: ${label}`}
        loading="lazy"
        decoding="async"
      />
      <span className="compare__divider" aria-hidden="true">
        <span className="compare__handle" />
      </span>
      <span className="compare__tag compare__tag--before" aria-hidden="true">
        Before
      </span>
      <span className="compare__tag compare__tag--after" aria-hidden="true">
        After
      </span>
      <label className="visually-hidden" htmlFor={id}>
        Compare before and after: {label}
      </label>
      <input
        id={id}
        className="compare__range"
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
