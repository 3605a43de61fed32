import { zodResolver } from '@hookform/resolvers/zod'
import { useId, useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { Alert } from '@/components/ui/Alert'
import { Spinner } from '@/components/ui/Spinner'
import { IconUpload } from '@/components/ui/icons'
import { ACCEPTED_IMAGE_TYPES } from '@/config'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import type { CatalogKind } from '../api/keys'
import { useUploadCatalogItem } from '../api/uploadCatalogItem'
import { CATEGORY_MAX, NAME_MAX, uploadSchema, type UploadValues } from '../schemas'
import styles from '../catalog.module.css'

const KIND_LABEL: Record<CatalogKind, string> = { model: 'digital model', background: 'background' }

interface UploadFormProps {
  kind: CatalogKind
  /** Categories already in use, offered as suggestions. */
  categories: string[]
}

/** Upload a model or background photo; it arrives unpublished. The server vets the photo and
 *  its refusal ("No person found in this photo", …) is shown above the button. */
export function UploadForm({ kind, categories }: UploadFormProps) {
  const id = useId()
  // A new key empties the file input after an upload (its value cannot be set).
  const [fileKey, setFileKey] = useState(0)
  const upload = useUploadCatalogItem()
  const [refusal, setRefusal] = useState<string | null>(null)
  const {
    control,
    register,
    handleSubmit,
    reset,
    clearErrors,
    formState: { errors },
  } = useForm<UploadValues>({
    resolver: zodResolver(uploadSchema),
    defaultValues: { file: null, name: '', category: '' },
    reValidateMode: 'onSubmit',
  })

  const submit = handleSubmit(async (values) => {
    setRefusal(null)
    try {
      const item = await upload.mutateAsync({
        kind,
        file: values.file as File,
        name: values.name.trim(),
        category: values.category.trim(),
      })
      reset({ file: null, name: '', category: '' })
      setFileKey((k) => k + 1)
      toast.success(`"${item.name}" was added. Publish it when it is ready.`)
    } catch (err) {
      setRefusal(errorMessage(err))
    }
  })

  const fieldClass = (invalid: boolean) => `input${invalid ? ' input--invalid' : ''}`

  return (
    <form className={styles.catalogUpload} onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        Upload a {KIND_LABEL[kind]}
      </h2>
      <p className={`field-hint ${styles.catalogUploadHint}`}>
        {kind === 'model'
          ? 'A JPEG, PNG or WebP photo of exactly one person, at least 768 px on its short side.'
          : 'A JPEG, PNG or WebP photo, at least 768 px on its short side.'}
      </p>
      <div className={styles.catalogUploadFields}>
        <div className="field">
          <label htmlFor={`${id}-file`}>Photo</label>
          <Controller
            control={control}
            name="file"
            render={({ field }) => (
              <input
                key={fileKey}
                ref={field.ref}
                id={`${id}-file`}
                name={field.name}
                className={fieldClass(Boolean(errors.file))}
                type="file"
                accept={ACCEPTED_IMAGE_TYPES.join(',')}
                onBlur={field.onBlur}
                onChange={(e) => {
                  field.onChange(e.target.files?.[0] ?? null)
                  clearErrors('file')
                  setRefusal(null)
                }}
                aria-invalid={errors.file ? true : undefined}
                aria-describedby={errors.file ? `${id}-file-error` : undefined}
                data-testid="catalog-upload-file"
              />
            )}
          />
          {errors.file?.message && (
            <p id={`${id}-file-error`} className="field-error" data-testid="catalog-upload-file-error">
              {errors.file.message}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            className={fieldClass(Boolean(errors.name))}
            type="text"
            maxLength={NAME_MAX}
            {...register('name', { onChange: () => clearErrors('name') })}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? `${id}-name-error` : undefined}
            data-testid="catalog-upload-name"
          />
          {errors.name?.message && (
            <p id={`${id}-name-error`} className="field-error" data-testid="catalog-upload-name-error">
              {errors.name.message}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-category`}>
            Category <span className="muted">(optional)</span>
          </label>
          <input
            id={`${id}-category`}
            className={fieldClass(Boolean(errors.category))}
            type="text"
            maxLength={CATEGORY_MAX}
            list={`${id}-categories`}
            placeholder="e.g. studio"
            {...register('category', { onChange: () => clearErrors('category') })}
            aria-invalid={errors.category ? true : undefined}
            data-testid="catalog-upload-category"
          />
          <datalist id={`${id}-categories`}>
            {categories.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
          {errors.category?.message && <p className="field-error">{errors.category.message}</p>}
        </div>
      </div>
      {refusal && (
        <Alert tone="error" title="The photo was not added" testId="catalog-upload-refusal">
          {refusal}
        </Alert>
      )}
      <div>
        <button type="submit" className="btn btn--primary" disabled={upload.isPending} data-testid="catalog-upload-submit">
          {upload.isPending ? <Spinner label="Checking the photo" /> : <IconUpload size={18} />}
          {upload.isPending ? 'Checking the photo…' : 'Upload'}
        </button>
      </div>
    </form>
  )
}
