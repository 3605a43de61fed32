/**
 * What the user is told when images of a generation fail, shared by the generate page,
 * the output page and My Images.
 *
 * The rule (core/generations/prices.py task_share, workflows/generation.py): a generation's charge
 * is split evenly over its images, and each image that fails gives its share back to the balance it was
 * paid from (the account's, or a guest's free credits). Re-renders with a new placement
 * (`sourceTaskId`) are free: no charge, so nothing comes back when one fails.
 */
import type { GenerationImage } from '@/types/api'
import { pluralize } from './format'

type ImageLike = Pick<GenerationImage, 'status' | 'sourceTaskId'>

/** The images the generation was charged for (not its free re-renders). */
export function chargedImages<T extends ImageLike>(images: readonly T[]): T[] {
  return images.filter((t) => !t.sourceTaskId)
}

/** Each charged image's share of the generation's credits: what its failure gives back. */
export function creditsPerImage(images: readonly ImageLike[], credits: number): number {
  const charged = chargedImages(images).length
  return charged > 0 && credits > 0 ? Math.floor(credits / charged) : 0
}

/** "its 1 credit was returned…" / "their 4 credits were returned…" / "no credits were taken…". */
export function returnedCreditsText(failed: number, returned: number): string {
  const owner = failed === 1 ? 'its' : 'their'
  if (returned <= 0) return `no credits were taken for ${failed === 1 ? 'it' : 'them'}`
  return `${owner} ${pluralize(returned, 'credit')} ${returned === 1 ? 'was' : 'were'} returned to your balance`
}

export interface FailureSummary {
  /** Charged images that failed. */
  failed: number
  /** Charged images in the generation. */
  total: number
  /** Credits given back for the failed images. */
  returned: number
  /** One sentence, e.g. "2 of 5 images failed; their 4 credits were returned to your balance." */
  message: string
}

/** The sentence for a generation's failed images, or null when none failed. */
export function failureSummary(images: readonly ImageLike[], credits: number): FailureSummary | null {
  const charged = chargedImages(images)
  const failed = charged.filter((t) => t.status === 'failed').length
  if (failed === 0) return null
  const total = charged.length
  const returned = failed * creditsPerImage(images, credits)
  const what =
    total === 1 ? 'The image failed' : failed === total ? `All ${total} images failed` : `${failed} of ${total} images failed`
  return { failed, total, returned, message: `${what}; ${returnedCreditsText(failed, returned)}.` }
}

/** The note on one failed image's tile. */
export function failedImageNote(image: ImageLike, images: readonly ImageLike[], credits: number): string {
  if (image.sourceTaskId) return 'Re-renders are free: nothing was charged for this one.'
  const returned = creditsPerImage(images, credits)
  return returned > 0
    ? `Its ${pluralize(returned, 'credit')} ${returned === 1 ? 'was' : 'were'} returned to your balance.`
    : 'No credits were taken for it.'
}
