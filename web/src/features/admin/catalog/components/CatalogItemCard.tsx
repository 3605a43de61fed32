import { zodResolver } from '@hookform/resolvers/zod'
import { useId, useState } from 'react'
import { FormProvider, useForm } from 'react-hook-form'
import { Spinner } from '@/components/ui/Spinner'
import { IconTrash } from '@/components/ui/icons'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import { useDeleteCatalogItem } from '../api/deleteCatalogItem'
import type { AdminCatalogItem, CatalogKind } from '../api/keys'
import { useMoveCatalogItem, type MoveDirection } from '../api/moveCatalogItem'
import { useUpdateCatalogItem, type CatalogChanges } from '../api/updateCatalogItem'
import { BACKGROUND_CATEGORIES, attributeSummary } from '../attributes'
import { CATEGORY_MAX, NAME_MAX, editSchema, type EditValues } from '../schemas'
import { DescribeFields } from './DescribeFields'
import styles from '../catalog.module.css'

interface CatalogItemCardProps {
  item: AdminCatalogItem
  kind: CatalogKind
  first: boolean
  last: boolean
}

function EditForm({ item, kind, onDone }: { item: AdminCatalogItem; kind: CatalogKind; onDone: () => void }) {
  const id = useId()
  const update = useUpdateCatalogItem(kind)
  const [visibility, setVisibility] = useState(item.visibility)
  const form = useForm<EditValues>({
    resolver: zodResolver(editSchema),
    defaultValues: {
      name: item.name,
      category: item.category,
      description: item.description ?? '',
      gender: item.gender ?? '',
      skinTone: item.skinTone ?? '',
      bodyType: item.bodyType ?? '',
    },
    reValidateMode: 'onSubmit',
  })
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors },
  } = form

  const submit = handleSubmit(async (values) => {
    const { name, category } = values
    const description = values.description.trim()
    // A model's attributes are sent as chosen ("Not set" clears one: null); a background has none.
    const changes: CatalogChanges =
      kind === 'model'
        ? {
            name,
            category,
            description,
            visibility,
            gender: values.gender || null,
            skinTone: values.skinTone || null,
            bodyType: values.bodyType || null,
          }
        : { name, category, description, visibility }
    try {
      await update.mutateAsync({ itemId: item._id, changes })
      toast.success('Saved.')
      onDone()
    } catch (err) {
      toast.error(errorMessage(err))
    }
  })

  return (
    <FormProvider {...form}>
      <form className={styles.catalogItemEdit} onSubmit={submit} noValidate data-testid="catalog-edit-form">
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            className={`input${errors.name ? ' input--invalid' : ''}`}
            maxLength={NAME_MAX}
            {...register('name', { onChange: () => clearErrors('name') })}
            aria-invalid={errors.name ? true : undefined}
            data-testid="catalog-edit-name"
          />
          {errors.name?.message && <p className="field-error">{errors.name.message}</p>}
        </div>
        <div className="field">
          <label htmlFor={`${id}-category`}>Category</label>
          <input
            id={`${id}-category`}
            className={`input${errors.category ? ' input--invalid' : ''}`}
            maxLength={CATEGORY_MAX}
            list={kind === 'background' ? `${id}-categories` : undefined}
            {...register('category', { onChange: () => clearErrors('category') })}
            data-testid="catalog-edit-category"
          />
          {kind === 'background' && (
            <datalist id={`${id}-categories`}>
              {BACKGROUND_CATEGORIES.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          )}
          {errors.category?.message && <p className="field-error">{errors.category.message}</p>}
        </div>
        <DescribeFields
          kind={kind}
          id={id}
          testIdPrefix="catalog-edit"
          defaults={{ gender: item.gender ?? '', skinTone: item.skinTone ?? '', bodyType: item.bodyType ?? '' }}
        />
        <div className="field">
          <label htmlFor={`${id}-visibility`}>Visibility</label>
          <select
            id={`${id}-visibility`}
            className="input"
            value={visibility}
            onChange={(e) => setVisibility(e.target.value as AdminCatalogItem['visibility'])}
            data-testid="catalog-edit-visibility"
          >
            <option value="public">Public: listed in the picker when published</option>
            <option value="private">Private: never listed</option>
          </select>
        </div>
        <div className={styles.catalogItemRow}>
          <button type="submit" className="btn btn--primary btn--small" disabled={update.isPending}>
            {update.isPending && <Spinner label="Saving" />}
            Save
          </button>
          <button type="button" className="btn btn--ghost btn--small" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </FormProvider>
  )
}

/** One model or background: thumbnail, name, category, state; publish, edit, order, delete. */
export function CatalogItemCard({ item, kind, first, last }: CatalogItemCardProps) {
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const update = useUpdateCatalogItem(kind)
  const move = useMoveCatalogItem(kind)
  const remove = useDeleteCatalogItem(kind)
  const busy = update.isPending || move.isPending || remove.isPending

  const change = async (changes: CatalogChanges, done: string) => {
    try {
      await update.mutateAsync({ itemId: item._id, changes })
      toast.success(done)
    } catch (err) {
      toast.error(errorMessage(err))
    }
  }

  const moveTo = async (direction: MoveDirection) => {
    try {
      await move.mutateAsync({ itemId: item._id, direction })
    } catch (err) {
      toast.error(errorMessage(err))
    }
  }

  const destroy = async () => {
    try {
      await remove.mutateAsync(item._id)
      toast.success(`"${item.name}" was deleted.`)
    } catch (err) {
      setConfirming(false)
      toast.error(errorMessage(err))
    }
  }

  const listed = item.published && item.visibility === 'public'

  return (
    <li className={`${styles.catalogItem} card`} data-testid="catalog-item" data-item-id={item._id}>
      <div className={styles.catalogItemMedia}>
        <img src={item.thumbnailUrl || item.url} alt="" loading="lazy" />
      </div>
      <div className={styles.catalogItemBody}>
        <div className={styles.catalogItemTitle}>
          <strong className={styles.catalogItemName}>{item.name}</strong>
          <span className={`muted ${styles.catalogItemCategory}`} data-testid="catalog-item-category">{item.category || 'No category'}</span>
          {kind === 'model' && (
            <span className={`muted ${styles.catalogItemAttributes}`} data-testid="catalog-item-attributes">
              {attributeSummary(item) || 'No gender, skin tone or body type set'}
            </span>
          )}
          {item.description && (
            <span className={styles.catalogItemDescription} title={item.description} data-testid="catalog-item-description">
              {item.description}
            </span>
          )}
        </div>
        <div className={styles.catalogItemBadges}>
          <span
            className={`status-pill ${item.published ? 'status-pill--completed' : ''}`}
            data-testid="catalog-item-state"
          >
            {item.published ? 'Published' : 'Draft'}
          </span>
          {item.visibility === 'private' && <span className="status-pill status-pill--failed">Private</span>}
          {item.builtin && <span className="status-pill">Built-in</span>}
          {!listed && <span className="visually-hidden">Not shown in the picker.</span>}
        </div>

        {editing ? (
          <EditForm item={item} kind={kind} onDone={() => setEditing(false)} />
        ) : confirming ? (
          <div className={styles.catalogItemConfirm} role="alertdialog" aria-label={`Delete ${item.name}?`}>
            <p>
              Delete <strong>{item.name}</strong>? Its photo is removed for good.
            </p>
            <div className={styles.catalogItemRow}>
              <button
                type="button"
                className={`btn btn--small ${styles.catalogItemDanger}`}
                onClick={() => void destroy()}
                disabled={busy}
                data-testid="catalog-delete-confirm"
              >
                {remove.isPending && <Spinner label="Deleting" />}
                Delete
              </button>
              <button type="button" className="btn btn--ghost btn--small" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          </div>
        ) : (
          <div className={styles.catalogItemActions}>
            <button
              type="button"
              className={`btn btn--small ${item.published ? 'btn--secondary' : 'btn--primary'}`}
              onClick={() =>
                void change(
                  { published: !item.published },
                  item.published ? `"${item.name}" is hidden from the picker.` : `"${item.name}" is published.`,
                )
              }
              disabled={busy}
              data-testid="catalog-publish-toggle"
            >
              {item.published ? 'Unpublish' : 'Publish'}
            </button>
            <button
              type="button"
              className="btn btn--secondary btn--small"
              onClick={() => setEditing(true)}
              disabled={busy}
              data-testid="catalog-edit"
            >
              Edit
            </button>
            <div className={styles.catalogItemOrder} role="group" aria-label="Order">
              <button
                type="button"
                className="icon-btn icon-btn--small"
                onClick={() => void moveTo('up')}
                disabled={busy || first}
                aria-label={`Move ${item.name} earlier`}
                title="Move earlier"
                data-testid="catalog-move-up"
              >
                ↑
              </button>
              <button
                type="button"
                className="icon-btn icon-btn--small"
                onClick={() => void moveTo('down')}
                disabled={busy || last}
                aria-label={`Move ${item.name} later`}
                title="Move later"
                data-testid="catalog-move-down"
              >
                ↓
              </button>
            </div>
            {!item.builtin && (
              <button
                type="button"
                className={`icon-btn icon-btn--small ${styles.catalogItemDelete}`}
                onClick={() => setConfirming(true)}
                disabled={busy}
                aria-label={`Delete ${item.name}`}
                title="Delete"
                data-testid="catalog-delete"
              >
                <IconTrash size={16} />
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  )
}
