/** Storage keys. Names follow shared/spec/product-spec.md and the web brief exactly. */
export const STORAGE_KEYS = {
  stepsFlow: 'mm:stepsflow', // sessionStorage
  distributorId: 'mm:distributorId', // sessionStorage
  fingerprint: 'mm:fingerprint', // localStorage
  guestToken: 'mm:guestToken', // localStorage
  leadId: 'mm:leadId', // localStorage
} as const

export const DEFAULT_DISTRIBUTOR_ID = 'metamodel'

/** Paging sizes used by the pickers (seed page size 18 is from the spec). */
export const MODEL_PAGE_SIZE = 12
export const SEED_PAGE_SIZE = 18

/** How often task progress is polled while a generation runs. */
export const POLL_INTERVAL_MS = 700

/** Uploads always ask for a bodySwap presigned URL: at upload time the user has
 *  not yet chosen between a model swap and a background-only replace. */
export const UPLOAD_REQUEST_TYPE = 'bodySwap'

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024
