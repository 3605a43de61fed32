import type { ReactNode } from 'react'
import { IconCheck } from './icons'

interface ChoiceCardProps {
  label: string
  sublabel?: string
  imageUrl?: string
  /** Rendered instead of an image (e.g. built-in backgrounds). */
  swatch?: ReactNode
  selected: boolean
  onSelect: () => void
  testId: string
  data?: Record<`data-${string}`, string>
}

/** A selectable image tile; a toggle button so the choice is announced. */
export function ChoiceCard({ label, sublabel, imageUrl, swatch, selected, onSelect, testId, data }: ChoiceCardProps) {
  return (
    <button
      type="button"
      className={`choice${selected ? ' choice--selected' : ''}`}
      aria-pressed={selected}
      aria-label={sublabel ? `${label}, ${sublabel}` : label}
      onClick={onSelect}
      data-testid={testId}
      {...data}
    >
      <span className="choice__media">
        {swatch ?? (imageUrl ? <img src={imageUrl} alt="" loading="lazy" /> : null)}
        {selected && (
          <span className="choice__check" aria-hidden="true">
            <IconCheck size={16} />
          </span>
        )}
      </span>
      <span className="choice__text">
        <span className="choice__label">{label}</span>
        {sublabel && <span className="choice__sub">{sublabel}</span>}
      </span>
    </button>
  )
}
