import { zodResolver } from '@hookform/resolvers/zod'
import { useId, useState } from 'react'
import { Controller, FormProvider, useForm } from 'react-hook-form'
import { Alert } from '@/components/ui/Alert'
import { Spinner } from '@/components/ui/Spinner'
import { IconUpload } from '@/components/ui/icons'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import type { CatalogKind } from '../api/keys'
import { useUploadCatalogItem } from '../api/uploadCatalogItem'
import { BACKGROUND_CATEGORIES } from '../attributes'
import { CATEGORY_MAX, NAME_MAX, NO_ATTRIBUTES, uploadSchema, type UploadValues } from '../schemas'
import { DescribeFields } from './DescribeFields'
import { FilePicker } from './FilePicker'
import styles from '../catalog.module.css'

const KIND_LABEL: Record<CatalogKind, string> = { model: 'digital model', background: 'background' }

interface UploadFormProps {
  kind: CatalogKind
  /** Categories already in use, offered as suggestions (for backgrounds after Studio, Street, …). */
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
  const form = useForm<UploadValues>({
    resolver: zodResolver(uploadSchema),
    defaultValues: { file: null, name: '', category: '', ...NO_ATTRIBUTES },
    reValidateMode: 'onSubmit',
  })
  const {
    control,
    register,
    handleSubmit,
    reset,
    clearErrors,
    formState: { errors },
  } = form
  const suggestions = kind === 'background' ? [...new Set([...BACKGROUND_CATEGORIES, ...categories])] : categories

  const submit = handleSubmit(async (values) => {
    setRefusal(null)
    try {
      const item = await upload.mutateAsync({
        kind,
        file: values.file as File,
        name: values.name.trim(),
        category: values.category.trim(),
        description: values.description.trim(),
        gender: values.gender,
        skinTone: values.skinTone,
        bodyType: values.bodyType,
      })
      reset({ file: null, name: '', category: '', ...NO_ATTRIBUTES })
      setFileKey((k) => k + 1)
      toast.success(`"${item.name}" was added. Publish it when it is ready.`)
    } catch (err) {
      setRefusal(errorMessage(err))
    }
  })

  const fieldClass = (invalid: boolean) => `input${invalid ? ' input--invalid' : ''}`

  return (
    <FormProvider {...form}>
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
            <span className={styles.catalogFieldLabel} id={`${id}-file-label`}>
              Photo
            </span>
            <Controller
              control={control}
              name="file"
              render={({ field }) => (
                <FilePicker
                  key={fileKey}
                  inputRef={field.ref}
                  id={`${id}-file`}
                  name={field.name}
                  file={field.value ?? null}
                  invalid={Boolean(errors.file)}
                  describedBy={errors.file ? `${id}-file-error` : undefined}
                  onBlur={field.onBlur}
                  onChange={(file) => {
                    field.onChange(file)
                    clearErrors('file')
                    setRefusal(null)
                  }}
                  testId="catalog-upload-file"
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
              placeholder={kind === 'background' ? 'e.g. studio, street, nature, interior' : 'e.g. studio'}
              {...register('category', { onChange: () => clearErrors('category') })}
              aria-invalid={errors.category ? true : undefined}
              data-testid="catalog-upload-category"
            />
            <datalist id={`${id}-categories`}>
              {suggestions.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
            {errors.category?.message && <p className="field-error">{errors.category.message}</p>}
          </div>
          <DescribeFields
            kind={kind}
            id={id}
            testIdPrefix="catalog-upload"
          />
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
    </FormProvider>
  )
}
