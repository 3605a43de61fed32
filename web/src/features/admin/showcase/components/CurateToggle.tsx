import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import { useCurateShowcase } from '../api/curateShowcase'

interface CurateToggleProps {
  taskId: string
  showcased: boolean
}

/** A switch: the pair is in the public showcase, or not. The server's refusal is toasted. */
export function CurateToggle({ taskId, showcased }: CurateToggleProps) {
  const curate = useCurateShowcase()
  const toggle = () =>
    curate.mutate(
      { taskId, showcased: !showcased },
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
      className={`curate-toggle${showcased ? ' curate-toggle--on' : ''}`}
      onClick={toggle}
      disabled={curate.isPending}
      data-testid="curate-toggle"
    >
      <span className="curate-toggle__track" aria-hidden="true">
        <span className="curate-toggle__thumb" />
      </span>
      <span className="curate-toggle__label">{showcased ? 'In the showcase' : 'Not shown'}</span>
    </button>
  )
}
