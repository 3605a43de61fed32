import { useEffect, useMemo, useState, type Ref } from 'react'
import { IconUpload } from '@/components/ui/icons'
import { ACCEPTED_IMAGE_TYPES } from '@/config'
import styles from '../catalog.module.css'

interface FilePickerProps {
  id: string
  name: string
  file: File | null
  invalid: boolean
  describedBy?: string
  inputRef: Ref<HTMLInputElement>
  onChange: (file: File | null) => void
  onBlur: () => void
  testId: string
}

/** Whether a file can be shown as a thumbnail here (an image, and a browser with object URLs). */
function previewable(file: File | null): file is File {
  return Boolean(file && file.type.startsWith('image/') && typeof URL.createObjectURL === 'function')
}

/** A drop zone over a hidden file input: click (or Enter/Space on the input) to choose, or drop
 *  a photo on it; once chosen it shows the photo's thumbnail and file name. */
export function FilePicker({ id, name, file, invalid, describedBy, inputRef, onChange, onBlur, testId }: FilePickerProps) {
  const [dragging, setDragging] = useState(false)
  const preview = useMemo(() => (previewable(file) ? URL.createObjectURL(file) : null), [file])
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview)
    },
    [preview],
  )

  const className = [
    styles.dropZone,
    dragging ? styles.dropZoneActive : '',
    invalid ? styles.dropZoneInvalid : '',
    file ? styles.dropZoneChosen : '',
  ]
    .filter(Boolean)
    .join(' ')

  return (
    <div
      className={className}
      onDragOver={(e) => {
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault()
        setDragging(false)
        const dropped = e.dataTransfer.files[0]
        if (dropped) onChange(dropped)
      }}
      data-testid={`${testId}-zone`}
    >
      <input
        ref={inputRef}
        id={id}
        name={name}
        className="visually-hidden"
        type="file"
        accept={ACCEPTED_IMAGE_TYPES.join(',')}
        onBlur={onBlur}
        onChange={(e) => onChange(e.target.files?.[0] ?? null)}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        data-testid={testId}
      />
      <label htmlFor={id} className={styles.dropZoneLabel}>
        <span className={styles.dropZoneMedia} aria-hidden="true">
          {preview ? <img src={preview} alt="" data-testid={`${testId}-preview`} /> : <IconUpload size={22} />}
        </span>
        <span className={styles.dropZoneText}>
          {file ? (
            <>
              <strong className={styles.dropZoneName} data-testid={`${testId}-name`}>
                {file.name}
              </strong>
              <span className="muted">Click to choose another photo</span>
            </>
          ) : (
            <>
              <strong>Choose a photo</strong>
              <span className="muted">or drop it here · JPEG, PNG or WebP</span>
            </>
          )}
        </span>
      </label>
    </div>
  )
}
