import { errorMessage } from '@/lib/api'
import { useShareImage } from '../api/shareImage'
import styles from '../library.module.css'

/** The owner's consent to show this input/output pair in the public showcase (off by default). */
export function ShareToggle({ imageId, shared }: { imageId: string; shared: boolean }) {
  const share = useShareImage()
  const on = share.isPending ? share.variables.shared : share.isSuccess ? share.data.shared : shared
  return (
    <div className={styles.libShare}>
      <label className={styles.libSwitch} title="Owners decide; our team picks among shared images for the public showcase.">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={share.isPending}
          onChange={(e) => share.mutate({ taskId: imageId, shared: e.target.checked })}
          data-testid="share-toggle"
        />
        <span className={styles.libSwitchTrack} aria-hidden="true" />
        <span>Share to showcase</span>
      </label>
      {share.isError && (
        <p className="field-error" role="alert">
          {errorMessage(share.error)}
        </p>
      )}
    </div>
  )
}
