import { Link } from 'react-router'

interface ModelsEmptyProps {
  /** A category is chosen: the catalog has models, just none in it. */
  category: string
  /** A gender, skin tone or body type filter is chosen too. */
  filtered?: boolean
  isAdmin: boolean
  /** Back to every model: the category and the filters are cleared. */
  onShowAll: () => void
}

/** What the picker says when there is no model to show. */
export function ModelsEmpty({ category, filtered = false, isAdmin, onShowAll }: ModelsEmptyProps) {
  if (filtered) {
    return (
      <div className="empty-state" data-testid="models-empty">
        <p className="empty-state__title">
          No models match these filters{category ? ` in “${category}”` : ''}
        </p>
        <p>Try another choice, or clear the filters to see every model.</p>
        <button
          type="button"
          className="btn btn--secondary btn--small"
          onClick={onShowAll}
          data-testid="models-clear-filters"
        >
          Clear filters
        </button>
      </div>
    )
  }
  if (category) {
    return (
      <div className="empty-state" data-testid="models-empty">
        <p className="empty-state__title">No models in “{category}”</p>
        <button type="button" className="btn btn--secondary btn--small" onClick={onShowAll}>
          Show all models
        </button>
      </div>
    )
  }
  return (
    <div className="empty-state" data-testid="models-empty">
      <p className="empty-state__title">No digital models are available yet</p>
      <p>You can still skip this step and change only the background.</p>
      {isAdmin && (
        <Link to="/digital-models" className="btn btn--primary btn--small" data-testid="models-empty-admin-link">
          Add digital models
        </Link>
      )}
    </div>
  )
}
