/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** OAuth client id for "Continue with Google"; empty disables the button. */
  readonly VITE_GOOGLE_CLIENT_ID?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
