/** How the /verify page presents each verdict of the Content Credentials check. */
import type { ProvenanceCheck } from '@/types/api'

export type Verdict = ProvenanceCheck['verdict']

interface VerdictLook {
  title: string
  tone: 'success' | 'warning' | 'error' | 'info'
}

export const VERDICTS: Record<Verdict, VerdictLook> = {
  verified: { title: 'Made by MetaModel, unchanged', tone: 'success' },
  altered: { title: 'Made by MetaModel, but changed since', tone: 'warning' },
  not_ours: { title: 'Content Credentials from someone else', tone: 'info' },
  invalid: { title: 'Content Credentials that do not validate', tone: 'error' },
  none: { title: 'No Content Credentials', tone: 'info' },
}

/** The types the server reads (anything else it refuses with a message, which is shown). */
export const CHECKED_TYPES = ['image/jpeg', 'image/png']
