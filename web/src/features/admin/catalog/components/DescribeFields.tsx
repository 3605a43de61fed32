import { useFormContext, useWatch } from 'react-hook-form'
import { ATTRIBUTES, type AttributeKey } from '../attributes'
import type { CatalogKind } from '../api/keys'
import { DESCRIPTION_MAX } from '../schemas'
import styles from '../catalog.module.css'

export type DescribeKey = 'description' | AttributeKey

/** What these fields need of the form around them (the upload's and the edit's both have it). */
type DescribeValues = Record<DescribeKey, string>

interface DescribeFieldsProps {
  kind: CatalogKind
  /** The prefix of the inputs' ids (useId of the form). */
  id: string
  /** catalog-upload or catalog-edit: the inputs are `${testIdPrefix}-description`, `-gender`, … */
  testIdPrefix: string
  /** The attributes the form starts from (the item's, when editing). */
  defaults?: Partial<Record<AttributeKey, string>>
}

/** The description (every item) and, for a digital model, gender, skin tone and body type:
 *  what the model picker shows on the card and filters on. They register themselves with the
 *  form around them (a FormProvider), each clearing its error when changed. */
export function DescribeFields({ kind, id, testIdPrefix, defaults = {} }: DescribeFieldsProps) {
  const {
    control,
    register,
    clearErrors,
    formState: { errors: formErrors },
  } = useFormContext<DescribeValues>()
  const field = (key: DescribeKey) => register(key, { onChange: () => clearErrors(key) })
  const errors: Partial<Record<DescribeKey, string>> = {
    description: formErrors.description?.message,
    gender: formErrors.gender?.message,
    skinTone: formErrors.skinTone?.message,
    bodyType: formErrors.bodyType?.message,
  }
  const descriptionLength = (useWatch({ control, name: 'description' }) ?? '').length
  const over = descriptionLength > DESCRIPTION_MAX
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-description`}>
          Description <span className="muted">(optional)</span>
        </label>
        <textarea
          id={`${id}-description`}
          className={`input ${styles.catalogDescription}${errors.description ? ' input--invalid' : ''}`}
          rows={2}
          placeholder={kind === 'model' ? 'e.g. Slim build · fair skin · long dark hair · 172 cm' : 'e.g. Pale blue wall over a wooden table'}
          {...field('description')}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={`${id}-description-count${errors.description ? ` ${id}-description-error` : ''}`}
          data-testid={`${testIdPrefix}-description`}
        />
        <p id={`${id}-description-count`} className={`field-hint ${styles.catalogCounter}${over ? ` ${styles.catalogCounterOver}` : ''}`}>
          {descriptionLength}/{DESCRIPTION_MAX} · shown under the name in the picker
        </p>
        {errors.description && (
          <p id={`${id}-description-error`} className="field-error" data-testid={`${testIdPrefix}-description-error`}>
            {errors.description}
          </p>
        )}
      </div>
      {kind === 'model' && (
        <fieldset className={styles.catalogAttributes}>
          <legend>Shown to users as filters</legend>
          {ATTRIBUTES.map((attribute) => (
            <div className="field" key={attribute.key}>
              <label htmlFor={`${id}-${attribute.key}`}>{attribute.label}</label>
              <select
                id={`${id}-${attribute.key}`}
                className={`input${errors[attribute.key] ? ' input--invalid' : ''}`}
                defaultValue={defaults[attribute.key] ?? ''}
                {...field(attribute.key)}
                aria-invalid={errors[attribute.key] ? true : undefined}
                data-testid={`${testIdPrefix}-${attribute.key}`}
              >
                <option value="">Not set</option>
                {attribute.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
              {errors[attribute.key] && (
                <p className="field-error" data-testid={`${testIdPrefix}-${attribute.key}-error`}>
                  {errors[attribute.key]}
                </p>
              )}
            </div>
          ))}
        </fieldset>
      )}
    </>
  )
}
