import { useId, useRef, useState, type DragEvent } from 'react'
import { IconUpload } from '@/components/ui/icons'
import styles from './DropZone.module.css'

interface DropZoneProps {
  /** What to drop, e.g. "Drop an image here". */
  title: string
  /** The types and limits in words; the button is described by it. */
  hint: string
  /** The button's label, e.g. "Choose files". */
  chooseLabel: string
  /** MIME types the file chooser offers. */
  accept: readonly string[]
  multiple?: boolean
  disabled?: boolean
  /** The files dropped or chosen (never empty). */
  onFiles: (files: File[]) => void
  testId: string
  chooseTestId: string
  inputTestId: string
}

/**
 * Files dropped on the area or picked with its one visible button. The file input itself is
 * out of the tab order and of the accessibility tree: keyboard and screen-reader users meet
 * one control (the button), not an invisible second one.
 */
export function DropZone({
  title,
  hint,
  chooseLabel,
  accept,
  multiple = false,
  disabled = false,
  onFiles,
  testId,
  chooseTestId,
  inputTestId,
}: DropZoneProps) {
  const hintId = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const [dragging, setDragging] = useState(false)
  const take = (list: FileList | null | undefined) => {
    const files = Array.from(list ?? [])
    if (files.length) onFiles(multiple ? files : files.slice(0, 1))
  }
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setDragging(false)
    take(e.dataTransfer.files)
  }

  return (
    <div
      className={dragging ? `${styles.zone} ${styles.active}` : styles.zone}
      onDragOver={(e) => {
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid={testId}
    >
      <span className={styles.icon} aria-hidden="true">
        <IconUpload size={28} />
      </span>
      <p className={styles.title}>{title}</p>
      <p className={styles.hint} id={hintId}>
        {hint}
      </p>
      <button
        type="button"
        className="btn btn--secondary"
        onClick={() => inputRef.current?.click()}
        aria-describedby={hintId}
        disabled={disabled}
        data-testid={chooseTestId}
      >
        {chooseLabel}
      </button>
      <input
        ref={inputRef}
        className="visually-hidden"
        type="file"
        multiple={multiple}
        accept={accept.join(',')}
        tabIndex={-1}
        aria-hidden="true"
        data-testid={inputTestId}
        onChange={(e) => {
          take(e.target.files)
          e.target.value = '' // the same file may be chosen again
        }}
      />
    </div>
  )
}
