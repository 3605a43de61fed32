import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import { useCurateShowcase } from '../api/curateShowcase'
import styles from '../admin-showcase.module.css'

interface CurateToggleProps {
  imageId: string
  showcased: boolean
}

/** A switch: the pair is in the public showcase, or not. The server's refusal is toasted. */
export function CurateToggle({ imageId, showcased }: CurateToggleProps) {
  const curate = useCurateShowcase()
  const toggle = () =>
    curate.mutate(
      { imageId, showcased: !showcased },
      {
        onSuccess: (pair) => toast.success(pair.showcased ? 'Added to the showcase.' : 'Taken off the showcase.'),
        onError: (err) => toast.error(errorMessage(err)),
      },
    )
  return (
    <button
      type="button"
      role="switch"
      aria-checked={showcased}
      className={`${styles.curateToggle}${showcased ? ` ${styles.curateToggleOn}` : ''}`}
      onClick={toggle}
      disabled={curate.isPending}
      data-testid="curate-toggle"
    >
      <span className={styles.curateToggleTrack} aria-hidden="true">
        <span className={styles.curateToggleThumb} />
      </span>
      <span>{showcased ? 'In the showcase' : 'Not shown'}</span>
    </button>
  )
}
