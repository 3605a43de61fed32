import picker from './picker.module.css'

interface CategoryChipsProps {
  categories: string[]
  /** The chosen category; '' is All. */
  value: string
  onChange: (category: string) => void
  /** How a category reads on its chip. */
  label: (category: string) => string
  testId: string
  chipTestId: string
}

/** A picker's category filter (models, backgrounds): All, then each category. Shown when there
 *  is a choice to make, or while one is chosen. */
export function CategoryChips({ categories, value, onChange, label, testId, chipTestId }: CategoryChipsProps) {
  if (categories.length <= 1 && !value) return null
  return (
    <div className={picker.filters} role="group" aria-label="Category" data-testid={testId}>
      {['', ...categories].map((c) => (
        <button
          key={c || 'all'}
          type="button"
          className={`chip${c === value ? ' chip--active' : ''}`}
          aria-pressed={c === value}
          onClick={() => onChange(c)}
          data-testid={chipTestId}
          data-value={c || 'all'}
        >
          {c ? label(c) : 'All'}
        </button>
      ))}
    </div>
  )
}
