import { FILTER_GROUPS, type ModelFilterKey, type ModelFilters } from '../labels'
import type { ModelFilterValues } from '../api/getModelFilters'
import picker from '@/features/create/picker.module.css'

interface ModelFilterBarProps {
  /** The values published models have (GET /api/v1/model/filters). */
  values: ModelFilterValues
  filters: ModelFilters
  onChange: (key: ModelFilterKey, value: string) => void
}

/** Gender, skin tone and body type as chip groups ("All" first); a group without values is left out. */
export function ModelFilterBar({ values, filters, onChange }: ModelFilterBarProps) {
  const groups = FILTER_GROUPS.filter((g) => values[g.key].length > 0 || filters[g.key])
  if (!groups.length) return null
  return (
    <div className={picker.filterGroups} data-testid="model-filters">
      {groups.map((group) => {
        const current = filters[group.key] ?? ''
        const options: string[] = ['', ...values[group.key]]
        // A chosen value the server no longer lists stays offered, so it can be seen and undone.
        if (current && !options.includes(current)) options.push(current)
        return (
          <div
            key={group.key}
            className={picker.filterGroup}
            role="group"
            aria-label={group.label}
            data-testid={`model-filter-${group.key}`}
          >
            <span className={picker.filterLabel} aria-hidden="true">
              {group.label}
            </span>
            {options.map((value) => (
              <button
                key={value || 'all'}
                type="button"
                className={`chip ${picker.filterChip}${value === current ? ' chip--active' : ''}`}
                aria-pressed={value === current}
                onClick={() => onChange(group.key, value)}
                data-testid="model-filter-option"
                data-value={value || 'all'}
              >
                {value ? (group.labels[value] ?? value) : 'All'}
              </button>
            ))}
          </div>
        )
      })}
    </div>
  )
}
