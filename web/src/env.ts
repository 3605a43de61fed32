/**
 * The build-time configuration (Vite's `import.meta.env`), checked once so a bad value stops
 * the app at start-up with a message naming the variable, instead of surfacing later as a
 * disabled button or a monitoring SDK that never reports.
 * Unset or blank variables mean "not configured", as they always have.
 *
 * Plain checks rather than a zod schema: this module runs on every first load, and zod's core
 * (about 20 KB compressed) then sat on the critical path of every page on a phone (issue 39);
 * the forms that need zod load it with their own pages.
 */

export interface BuildEnv {
  googleClientId: string
  imageEditApiKey: string
  sentryDsn: string
  /** Vite's mode (development, production, test) unless VITE_SENTRY_ENVIRONMENT is set. */
  sentryEnvironment: string
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

type Check = (value: string) => string | null

/** Each variable read as a trimmed string (unset: empty), then its rule. */
const TRIMMED: Record<'VITE_GOOGLE_CLIENT_ID' | 'VITE_IMAGE_EDIT_API_KEY' | 'VITE_SENTRY_DSN', Check> = {
  VITE_GOOGLE_CLIENT_ID: (v) =>
    /^[\w.-]*$/.test(v) ? null : 'must be an OAuth client id (letters, digits, ".", "-", "_"), or empty',
  VITE_IMAGE_EDIT_API_KEY: (v) => (/^\S*$/.test(v) ? null : 'must not contain spaces'),
  VITE_SENTRY_DSN: (v) => (v === '' || isHttpUrl(v) ? null : 'must be an http(s) URL (a Sentry DSN), or empty'),
}

/** Parses a build environment; throws one error that names every bad variable. */
export function parseBuildEnv(raw: unknown): BuildEnv {
  const env = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>
  const problems: string[] = []
  const values: Record<string, string> = {}
  const text = (name: string, optional: boolean): string | undefined => {
    const value = env[name]
    if (value === undefined && optional) return undefined
    if (typeof value === 'string') return value
    problems.push(`${name}: expected a string, got ${value === undefined ? 'nothing' : typeof value}`)
    return undefined
  }
  const mode = text('MODE', false) ?? ''
  for (const [name, check] of Object.entries(TRIMMED)) {
    const value = (text(name, true) ?? '').trim()
    const problem = check(value)
    if (problem) problems.push(`${name}: ${problem}`)
    values[name] = value
  }
  // Not trimmed, and an empty one is kept: exactly what the SDK was given before.
  const sentryEnvironment = text('VITE_SENTRY_ENVIRONMENT', true)
  if (problems.length) throw new Error(`Invalid build-time configuration (import.meta.env): ${problems.join('; ')}`)
  return {
    googleClientId: values.VITE_GOOGLE_CLIENT_ID!,
    imageEditApiKey: values.VITE_IMAGE_EDIT_API_KEY!,
    sentryDsn: values.VITE_SENTRY_DSN!,
    sentryEnvironment: sentryEnvironment ?? mode,
  }
}

export const BUILD_ENV: BuildEnv = parseBuildEnv(import.meta.env)
