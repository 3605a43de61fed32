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
  /** Why this choice cannot be used now (e.g. a model the photos cannot be swapped to): the card
   * says so and cannot be picked (a selected one can still be cleared). */
  unavailable?: string
}

/** A selectable image tile; a toggle button so the choice is announced. */
export function ChoiceCard({ label, sublabel, imageUrl, swatch, selected, onSelect, testId, data, unavailable }: ChoiceCardProps) {
  const name = sublabel ? `${label}, ${sublabel}` : label
  return (
    <button
      type="button"
      className={`choice${selected ? ' choice--selected' : ''}${unavailable ? ' choice--unavailable' : ''}`}
      aria-pressed={selected}
      aria-label={unavailable ? `${name}. Not available: ${unavailable}` : name}
      title={unavailable}
      disabled={!!unavailable && !selected}
      onClick={onSelect}
      data-testid={testId}
      data-unavailable={unavailable ? 'true' : undefined}
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
        {unavailable && (
          <span className="choice__unavailable" data-testid="choice-unavailable">
            Not available for your photo
          </span>
        )}
      </span>
    </button>
  )
}
