import { CompareSlider } from '@/components/viewer/CompareSlider'

interface BeforeAfterProps {
  before: string
  after: string
  /** What the pair shows, for the images' alternative texts. */
  label: string
  /** Load the images at once (above the fold, e.g. the landing page). */
  eager?: boolean
  /** The page's largest image: at once and first (see CompareSlider). */
  priority?: boolean
  testId?: string
}

/** A showcase pair in one frame with a slider (the shared CompareSlider). */
export function BeforeAfter({ before, after, label, eager = false, priority = false, testId = 'showcase-compare' }: BeforeAfterProps) {
  return <CompareSlider before={before} after={after} label={label} eager={eager} priority={priority} testId={testId} />
}
