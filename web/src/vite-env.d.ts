/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** OAuth client id for "Continue with Google"; empty disables the button. */
  readonly VITE_GOOGLE_CLIENT_ID?: string
  /** Sent as x-api-key on image edit calls; the API checks it when its API_KEYS is set. */
  readonly VITE_IMAGE_EDIT_API_KEY?: string
  /** Sentry DSN for browser errors, traces and replays; empty turns monitoring off. */
  readonly VITE_SENTRY_DSN?: string
  /** Sentry environment name (defaults to Vite's mode). */
  readonly VITE_SENTRY_ENVIRONMENT?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
