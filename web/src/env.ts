/**
 * The build-time configuration (Vite's `import.meta.env`), parsed once with a schema so a
 * bad value stops the app at start-up with a message naming the variable, instead of
 * surfacing later as a disabled button or a monitoring SDK that never reports.
 * Unset or blank variables mean "not configured", as they always have.
 */
import { z } from 'zod'

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

export const buildEnvSchema = z
  .object({
    /** Vite's mode (development, production, test): the Sentry environment unless one is set. */
    MODE: z.string(),
    VITE_GOOGLE_CLIENT_ID: z.string().trim()
      .regex(/^[\w.-]*$/, 'must be an OAuth client id (letters, digits, ".", "-", "_"), or empty')
      .default(''),
    VITE_IMAGE_EDIT_API_KEY: z.string().trim().regex(/^\S*$/, 'must not contain spaces').default(''),
    VITE_SENTRY_DSN: z.string().trim()
      .refine((dsn) => dsn === '' || isHttpUrl(dsn), 'must be an http(s) URL (a Sentry DSN), or empty')
      .default(''),
    // Not trimmed, and an empty one is kept: exactly what the SDK was given before.
    VITE_SENTRY_ENVIRONMENT: z.string().optional(),
  })
  .transform((env) => ({
    googleClientId: env.VITE_GOOGLE_CLIENT_ID,
    imageEditApiKey: env.VITE_IMAGE_EDIT_API_KEY,
    sentryDsn: env.VITE_SENTRY_DSN,
    sentryEnvironment: env.VITE_SENTRY_ENVIRONMENT ?? env.MODE,
  }))

export type BuildEnv = z.output<typeof buildEnvSchema>

/** Parses a build environment; throws one error that names every bad variable. */
export function parseBuildEnv(raw: unknown): BuildEnv {
  const result = buildEnvSchema.safeParse(raw)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`)
  throw new Error(`Invalid build-time configuration (import.meta.env): ${problems.join('; ')}`)
}

export const BUILD_ENV: BuildEnv = parseBuildEnv(import.meta.env)
