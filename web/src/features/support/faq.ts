/**
 * The help page's questions and answers, written from what the product does
 * (core/generations/prices.py, core/settings.py, README), and the search over them. The upload limits are the server's own
 * (GET /api/v1/config), so they are passed in rather than repeated here.
 */
import { SIGNUP_FREE_CREDITS } from '@/config'
import type { AppConfig } from '@/types/api'

export type FaqTopic = 'credits' | 'limits' | 'time' | 'privacy' | 'accounts'

export const FAQ_TOPICS: ReadonlyArray<{ value: FaqTopic; label: string }> = [
  { value: 'credits', label: 'Credits and refunds' },
  { value: 'limits', label: 'Formats and limits' },
  { value: 'time', label: 'How long it takes' },
  { value: 'privacy', label: 'Privacy and deletion' },
  { value: 'accounts', label: 'Guests and accounts' },
]

export interface FaqEntry {
  id: string
  topic: FaqTopic
  question: string
  /** Paragraphs of plain text (searched as they are shown). */
  answer: string[]
}

/** The limits the FAQ quotes: the server's, or why they are not there. */
export type LimitsState = { config: AppConfig } | { loading: true } | { error: string }

const TYPE_NAMES: Record<string, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP' }

function listOf(words: string[]): string {
  if (words.length <= 1) return words.join('')
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`
}

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024)
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
}

function limitsAnswer(limits: LimitsState): string[] {
  if ('loading' in limits) return ['Loading the current limits…']
  if ('error' in limits) return [`The current limits could not be loaded (${limits.error}). Please reload the page.`]
  const c = limits.config
  const types = listOf(c.acceptedTypes.map((t) => TYPE_NAMES[t] ?? t))
  return [
    `${types} photos, up to ${megabytes(c.maxUploadBytes)} and ${c.maxMegapixels} megapixels each, and at least ` +
      `${c.minImageSide} pixels on the short side. One generation takes up to ${c.maxInputsPerGeneration} photos.`,
    'Every photo is checked when it is uploaded and again when you generate, so a photo that does not fit is ' +
      'refused with the reason before anything is charged.',
  ]
}

export function buildFaq(limits: LimitsState): FaqEntry[] {
  return [
    {
      id: 'cost',
      topic: 'credits',
      question: 'What does a generation cost?',
      answer: [
        'One credit per photo you upload, for a model swap and for a background replace alike. A model swap ' +
          'includes its background at no extra cost.',
        'The Generate page shows the cost before you start.',
      ],
    },
    {
      id: 'free-paid',
      topic: 'credits',
      question: 'What are free and paid credits?',
      answer: [
        `Your balance is the sum of free and paid credits. An account gets ${SIGNUP_FREE_CREDITS} free credits ` +
          'once, when you sign up; a guest gets a few free credits on a first visit. Paid credits are the ones you ' +
          'buy (see Pricing). Free credits are used first.',
        'The Dashboard shows your balance and the credits you spent and got back each day.',
      ],
    },
    {
      id: 'refunds',
      topic: 'credits',
      question: 'When are credits taken, and what if a generation fails?',
      answer: [
        'Starting a generation reserves its credits, so you can never start more than your balance covers; the ' +
          'balance you see is what you can still spend. The credits are taken when the work begins.',
        'A photo that fails in a way retrying cannot fix gets its credits back automatically, and the reason is ' +
          'shown beside it. A generation that fails before it begins is not charged at all, and a request sent ' +
          'again after a dropped connection is never charged twice.',
      ],
    },
    {
      id: 'unhappy',
      topic: 'credits',
      question: 'A result is not usable. What can I do?',
      answer: [
        'Automatic refunds cover failed photos. If a finished image is not usable, write to us with the topic ' +
          '"Credits and billing" and the date of the generation, and we will look at it.',
      ],
    },
    {
      id: 'formats',
      topic: 'limits',
      question: 'Which photos can I upload?',
      answer: limitsAnswer(limits),
    },
    {
      id: 'downloads',
      topic: 'limits',
      question: 'What do I get back?',
      answer: [
        'One new image per photo you uploaded, downloadable at full size. Signed-in users can also download ' +
          'several images at once as one ZIP from My Images. When our team retouches an image by hand, it appears ' +
          'as "Edited" beside the generated one and both can be downloaded.',
      ],
    },
    {
      id: 'duration',
      topic: 'time',
      question: 'How long does a generation take?',
      answer: [
        'Each photo is processed on its own and shows up on the output page the moment it is ready, with its ' +
          'progress shown as it goes. A photo usually takes under a minute; when many people generate at once, ' +
          'yours wait their turn.',
        'You do not have to wait on the page: signed-in users find the results in My Images, and guests can ' +
          'leave their email on the output page to be told when they are ready.',
      ],
    },
    {
      id: 'stuck',
      topic: 'time',
      question: 'What if a generation seems stuck?',
      answer: [
        'A generation that has not started after a minute is started again automatically. One that still ' +
          'cannot run after an hour is stopped, and the credits it reserved are given back.',
      ],
    },
    {
      id: 'who-sees',
      topic: 'privacy',
      question: 'Who can see my photos and results?',
      answer: [
        'You. Photos and results are stored privately and shown through links that expire within two hours. ' +
          'Our operators can look at a generation when they investigate a problem or retouch an image.',
        'Nothing appears in the Showcase unless you share it (sharing is off for every image until you turn it ' +
          'on), and even then our team chooses what is shown. You can stop sharing at any time.',
      ],
    },
    {
      id: 'delete',
      topic: 'privacy',
      question: 'How do I delete my images?',
      answer: [
        'Delete a generation in My Images: its results, their thumbnails and any retouched versions are removed ' +
          'from our storage, together with the photos you uploaded for it (unless another of your generations ' +
          'still uses them), and it leaves the Showcase. Your credit history keeps a line for it, as that history ' +
          'is never rewritten.',
        'Photos you uploaded but never generated with are deleted automatically after a day.',
      ],
    },
    {
      id: 'guest',
      topic: 'accounts',
      question: 'Do I need an account?',
      answer: [
        'No. As a guest you can generate right away with the free guest credits; your images stay with this ' +
          'browser. An account adds ' +
          `${SIGNUP_FREE_CREDITS} free credits, My Images and the Dashboard on any device, and buying credits.`,
      ],
    },
    {
      id: 'guest-to-account',
      topic: 'accounts',
      question: 'What happens to my guest images when I sign up?',
      answer: [
        'Sign up or log in in the same browser and the generations you made as a guest move to your account. ' +
          'Guest credits you have not used stay with the guest: the account has its own free credits.',
      ],
    },
  ]
}

/** Lower case, accents removed, runs of spaces collapsed: what the search compares. */
export function normalizeSearch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * The entries whose question, answer or topic name contain every word of the query (in any
 * order); all of them for a blank query.
 */
export function filterFaq(entries: readonly FaqEntry[], query: string): FaqEntry[] {
  const words = normalizeSearch(query).split(' ').filter(Boolean)
  if (words.length === 0) return [...entries]
  return entries.filter((entry) => {
    const topic = FAQ_TOPICS.find((t) => t.value === entry.topic)?.label ?? ''
    const haystack = normalizeSearch([entry.question, ...entry.answer, topic].join(' '))
    return words.every((w) => haystack.includes(w))
  })
}
