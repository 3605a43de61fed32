import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { FlowFile, SelectedBackground, SelectedModel } from '@/features/create/store'
import styles from './GeneratePage.module.css'

/** The photos shown as thumbnails; the rest are counted. */
const THUMBS_SHOWN = 6

/** One choice of the flow, with a link back to the step that makes it. */
function ChoiceRow({ term, step, children }: { term: string; step: string; children: ReactNode }) {
  return (
    <div className={styles.summaryRow}>
      <dt>{term}</dt>
      <dd>
        {children}
        <Link to={step} className="link-small">
          Change
        </Link>
      </dd>
    </div>
  )
}

interface ChoicesSummaryProps {
  /** The photos that will be sent. */
  files: FlowFile[]
  /** How many photos were left out as unusable (none usable: said instead of thumbnails). */
  unusableCount: number
  model: SelectedModel | null
  background: SelectedBackground | null
}

/** The generate step's "Your choices": the photos, the model and the background. */
export function ChoicesSummary({ files, unusableCount, model, background }: ChoicesSummaryProps) {
  return (
    <section className="card" aria-labelledby="summary-heading">
      <h2 id="summary-heading" className="card__title">
        Your choices
      </h2>
      <dl className={styles.summary}>
        <ChoiceRow term="Images" step="/upload-images">
          <div className={styles.summaryThumbs}>
            {files.length === 0 && unusableCount > 0 && <span className="muted">None usable</span>}
            {files.slice(0, THUMBS_SHOWN).map((f) => (
              <img key={f._id} src={f.thumbnailUrl || f.url || ''} alt={f.name} />
            ))}
            {files.length > THUMBS_SHOWN && <span className={styles.summaryMore}>+{files.length - THUMBS_SHOWN}</span>}
          </div>
        </ChoiceRow>
        <ChoiceRow term="Model" step="/select-model">
          <span>{model ? model.name : 'Keep original'}</span>
        </ChoiceRow>
        <ChoiceRow term="Background" step="/select-background">
          <span>{background ? background.name : 'Keep original'}</span>
        </ChoiceRow>
      </dl>
    </section>
  )
}
