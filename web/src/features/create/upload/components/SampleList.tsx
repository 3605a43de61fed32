import { useAtomValue } from 'jotai'
import { stepsFlowAtom } from '@/features/create/store'
import { useSamples } from '../api/getSamples'
import { addSample } from '../stores/uploads'
import styles from './SampleList.module.css'

/** "or try a sample": hidden entirely when there are none or they fail to load. */
export function SampleList() {
  const { data } = useSamples()
  const files = useAtomValue(stepsFlowAtom).stepUploadImages.files
  if (!data?.length) return null

  return (
    <section aria-labelledby="samples-heading" className="section">
      <h2 id="samples-heading" className="section__title">
        or try a sample
      </h2>
      <ul className={styles.row}>
        {data.map((s, i) => {
          const added = files.some((f) => f.source === 'sample' && f.serverId === s._id)
          const label = s.name || `Sample ${i + 1}`
          return (
            <li key={s._id}>
              <button
                type="button"
                className={added ? `${styles.sample} ${styles.sampleAdded}` : styles.sample}
                onClick={() => addSample(s)}
                disabled={added}
                aria-label={added ? `${label}: added` : `Use the sample: ${label}`}
                data-testid="sample-image"
              >
                <span className={styles.thumb}>
                  <img src={s.thumbnailUrl || s.url} alt="" loading="lazy" />
                </span>
                <span className={styles.caption} data-testid="sample-label">
                  {added ? 'Added' : label}
                </span>
              </button>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
