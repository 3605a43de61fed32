import { useState } from 'react'
import { IconImages } from '@/components/ui/icons'
import styles from '../library.module.css'

interface InputThumbProps {
  url: string
  /** Empty for a decorative copy (the faded input behind a failed image). */
  alt: string
}

/**
 * An image's input thumbnail, or a neutral mark where there is none or it does not load (an
 * input that could not be read, an object gone from storage): never a broken-image icon. A new
 * URL (the list refreshes its presigned links) is tried again.
 */
export function InputThumb({ url, alt }: InputThumbProps) {
  const [failed, setFailed] = useState<string | null>(null)
  if (!url || failed === url) {
    return (
      <span
        className={styles.libInputMissing}
        role={alt ? 'img' : undefined}
        aria-label={alt ? `${alt}: no preview` : undefined}
        aria-hidden={alt ? undefined : true}
        data-testid="input-missing"
      >
        <IconImages size={20} />
      </span>
    )
  }
  return <img src={url} alt={alt} loading="lazy" onError={() => setFailed(url)} data-testid="input-thumb" />
}
