import { BUILD_ENV } from './env'

/** Storage keys. Names follow shared/spec/product-spec.md and the web brief exactly. */
export const STORAGE_KEYS = {
  stepsFlow: 'mm:stepsflow', // sessionStorage
  distributorId: 'mm:distributorId', // sessionStorage
  referredBy: 'mm:referredBy', // localStorage: a partner link's dbId, until this browser has a session
  fingerprint: 'mm:fingerprint', // localStorage
  guestToken: 'mm:guestToken', // localStorage
  guestFreeWithheld: 'mm:guestFreeWithheld', // localStorage: '1' when the guest login granted no free credits
  leadId: 'mm:leadId', // localStorage
  user: 'mm:user', // localStorage: {userEmail, userToken, userName, userId}
  token: 'mm:token', // localStorage: the raw user access token
  userDetail: 'metamodel:userDetail', // localStorage: the user-detail context (spec §3)
} as const

/** Local-storage keys that survive a logout (plus the plain `leadId`, see features/auth/logout). */
export const KEPT_ON_LOGOUT = {
  local: [STORAGE_KEYS.leadId, STORAGE_KEYS.fingerprint, 'leadId'],
  session: [STORAGE_KEYS.distributorId],
} as const

/** Remember me: only the email is remembered, never the password (spec §9: 3600 s, secure, path /). */
export const REMEMBER_EMAIL_COOKIE = 'mm_remember_email'
export const REMEMBER_COOKIE_MAX_AGE_S = 3600

/** Google sign-in (implicit flow). Empty → the Google button is shown disabled. */
export const GOOGLE_CLIENT_ID = BUILD_ENV.googleClientId
export const GOOGLE_SCOPE = 'openid profile email'
export const GOOGLE_USERINFO_URL = 'https://www.googleapis.com/oauth2/v3/userinfo'

/** Account rules shared with the server. */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128
export const OTP_LENGTH = 6
export const SIGNUP_FREE_CREDITS = 10

export const DEFAULT_DISTRIBUTOR_ID = 'metamodel'

/** Paging sizes used by the pickers (seed page size 18 is from the spec). */
export const MODEL_PAGE_SIZE = 12
export const SEED_PAGE_SIZE = 18

/** The pause between image polls when the server did not hold the request (errors, old server). */
export const POLL_INTERVAL_MS = 700
/** How long the server may hold an image poll waiting for a change (long polling). */
export const LONG_POLL_WAIT_MS = 20_000

/** Uploads always ask for a bodySwap presigned URL: at upload time the user has
 *  not yet chosen between a model swap and a background-only replace. */
export const UPLOAD_REQUEST_TYPE = 'bodySwap'

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const
/** The server's limit (core/settings.py max_upload_bytes; GET /api/v1/config reports it). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024

/** The image edit client (spec §9): requests may take up to 600000 ms before they are given up. */
export const IMAGE_EDIT_TIMEOUT_MS = 600_000
/** Sent as x-api-key to /imageedit when the deployment sets one (the API checks it when API_KEYS is set). */
export const IMAGE_EDIT_API_KEY = BUILD_ENV.imageEditApiKey
/** Browser monitoring (spec §9): on only when a DSN is configured at build time. */
export const SENTRY_DSN = BUILD_ENV.sentryDsn
/** Sentry's environment name: VITE_SENTRY_ENVIRONMENT, else Vite's mode. */
export const SENTRY_ENVIRONMENT = BUILD_ENV.sentryEnvironment
