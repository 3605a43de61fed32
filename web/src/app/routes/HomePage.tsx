import { Link } from 'react-router'
import { IconArrowRight, IconImages, IconSparkle, IconUpload, IconUser } from '@/components/ui/icons'

const STEPS = [
  { icon: <IconUpload />, title: 'Upload', text: 'Add photos of your garment, worn by a person or a mannequin.' },
  { icon: <IconUser />, title: 'Pick a model', text: 'Choose a digital model from our catalog to wear it.' },
  { icon: <IconImages />, title: 'Pick a background', text: 'Studio white, transparent, or a photo scene.' },
  { icon: <IconSparkle />, title: 'Generate', text: 'Get new on-model images in about a minute and download them.' },
]

export function HomePage() {
  return (
    <div className="page home">
      <section className="hero">
        <p className="eyebrow">AI fashion imagery</p>
        <h1 className="hero__title">On-model photos of your collection, without the photo shoot.</h1>
        <p className="hero__text">
          Upload a garment photo, choose a digital model and a background, and MetaModel generates ready-to-use
          catalog images.
        </p>
        <div className="hero__actions">
          <Link to="/upload-images" className="btn btn--primary btn--large" data-testid="home-create">
            Create New Image <IconArrowRight size={18} />
          </Link>
          <Link to="/showcase" className="btn btn--ghost btn--large">
            See the showcase
          </Link>
        </div>
        <p className="muted hero__note">No account needed to try it: guests get free credits.</p>
      </section>

      <ol className="how">
        {STEPS.map((s, i) => (
          <li key={s.title} className="how__step">
            <span className="how__icon" aria-hidden="true">
              {s.icon}
            </span>
            <h2 className="how__title">
              <span className="how__num">{i + 1}.</span> {s.title}
            </h2>
            <p className="how__text">{s.text}</p>
          </li>
        ))}
      </ol>
    </div>
  )
}
