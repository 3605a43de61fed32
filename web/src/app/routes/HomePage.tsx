import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { IconArrowRight, IconImages, IconSparkle, IconUpload, IconUser } from '@/components/ui/icons'
import { useAuth } from '@/hooks/useAuth'
import { showcaseQueryOptions, type ShowcasePair } from '@/features/showcase/api/getShowcase'
import { BeforeAfter } from '@/features/showcase/components/BeforeAfter'
import { LEAD_SWAP_QUERY } from './homeLoader'
import styles from './home.module.css'

const STEPS = [
  { icon: <IconUpload />, title: 'Upload', text: 'Add photos of your garment, worn by a person or a mannequin.' },
  { icon: <IconUser />, title: 'Pick a model', text: 'Choose a digital model from our catalog to wear it.' },
  { icon: <IconImages />, title: 'Pick a background', text: 'Studio white, transparent, or a photo scene.' },
  { icon: <IconSparkle />, title: 'Generate', text: 'Get new on-model images in about a minute and download them.' },
]

const PAIR_LABEL: Record<ShowcasePair['service'], string> = {
  bodySwap: 'the garment on a digital model',
  burstreplace: 'the garment on a new background',
}

/** The first showcase pair: a model swap, else a background replace; null when there is none. */
function useLeadPair(): { pair: ShowcasePair | null; pending: boolean } {
  const swaps = useQuery(showcaseQueryOptions(LEAD_SWAP_QUERY))
  const swap = swaps.data?.items[0] ?? null
  const askBackgrounds = !swaps.isPending && !swap
  const backgrounds = useQuery({
    ...showcaseQueryOptions({ serviceType: 'burstreplace', pageNum: 1, pageSize: 1 }),
    enabled: askBackgrounds,
  })
  const pair = swap ?? backgrounds.data?.items[0] ?? null
  return { pair, pending: swaps.isPending || (askBackgrounds && backgrounds.isPending) }
}

function LeadImage() {
  const { pair, pending } = useLeadPair()
  // The caption's line is kept in every state, so the hero text below does not move when the
  // pair comes (a phone stacks the image above the text: layout shift 0.039, issue 39).
  const emptyCaption = <p className={styles.caption} aria-hidden="true" />
  if (pending) {
    return (
      <>
        <div className={styles.skeleton} role="img" aria-label="Loading an example" data-testid="home-showcase-loading" />
        {emptyCaption}
      </>
    )
  }
  if (!pair) {
    return (
      <>
        <div className={styles.fallback} data-testid="home-showcase-fallback">
          <div className={styles.fallbackPanel}>
            <IconUpload size={28} />
            Your garment photo
          </div>
          <IconArrowRight className={styles.fallbackArrow} aria-hidden="true" />
          <div className={styles.fallbackPanel}>
            <IconSparkle size={28} />
            On a model, ready for your catalog
          </div>
        </div>
        {emptyCaption}
      </>
    )
  }
  return (
    <>
      <BeforeAfter before={pair.inputUrl} after={pair.outputUrl} label={PAIR_LABEL[pair.service]} priority testId="home-compare" />
      <p className={styles.caption}>
        <span>Drag to compare the photo and the result</span>
        <Link to="/showcase">More examples</Link>
      </p>
    </>
  )
}

export function HomePage() {
  const { isAuthenticated } = useAuth()
  return (
    <div className="page home">
      <section className={styles.hero}>
        <figure className={styles.media} data-testid="home-showcase">
          <LeadImage />
        </figure>
        <div className={styles.heroText}>
          <p className="eyebrow">AI fashion imagery</p>
          <h1 className={styles.heroTitle}>On-model photos of your collection, without the photo shoot.</h1>
          <p className={styles.heroLead}>
            Upload a garment photo, choose a digital model and a background, and MetaModel generates ready-to-use
            catalog images.
          </p>
          <div className={styles.heroActions}>
            <Link to="/upload-images" className="btn btn--primary btn--large" data-testid="home-create">
              Create New Image <IconArrowRight size={18} />
            </Link>
            <Link to="/showcase" className="btn btn--ghost btn--large">
              See the showcase
            </Link>
          </div>
          {!isAuthenticated && (
            <p className={`muted ${styles.heroNote}`} data-testid="home-guest-note">
              No account needed to try it: guests get free credits.
            </p>
          )}
        </div>
      </section>

      <ol className={styles.how}>
        {STEPS.map((s, i) => (
          <li key={s.title} className={styles.howStep}>
            <span className={styles.howIcon} aria-hidden="true">
              {s.icon}
            </span>
            <h2 className={styles.howTitle}>
              <span className={styles.howNum}>{i + 1}.</span> {s.title}
            </h2>
            <p className={styles.howText}>{s.text}</p>
          </li>
        ))}
      </ol>
    </div>
  )
}
