import { describe, expect, it } from 'vitest'
import { GOOGLE_CLIENT_ID, IMAGE_EDIT_API_KEY, SENTRY_DSN, SENTRY_ENVIRONMENT } from './config'
import { parseBuildEnv } from './env'

describe('build-time configuration', () => {
  it('defaults as before: unset is empty, the Sentry environment is the mode', () => {
    expect(parseBuildEnv({ MODE: 'production' })).toEqual({
      googleClientId: '',
      imageEditApiKey: '',
      sentryDsn: '',
      sentryEnvironment: 'production',
    })
    // The test run sets none of them either.
    expect([GOOGLE_CLIENT_ID, IMAGE_EDIT_API_KEY, SENTRY_DSN, SENTRY_ENVIRONMENT]).toEqual(['', '', '', 'test'])
  })

  it('trims the values and keeps a set Sentry environment as it is', () => {
    expect(
      parseBuildEnv({
        MODE: 'production',
        VITE_GOOGLE_CLIENT_ID: ' 123-abc.apps.googleusercontent.com\n',
        VITE_IMAGE_EDIT_API_KEY: ' k-123 ',
        VITE_SENTRY_DSN: ' https://key@sentry.example/1 ',
        VITE_SENTRY_ENVIRONMENT: 'staging',
      }),
    ).toEqual({
      googleClientId: '123-abc.apps.googleusercontent.com',
      imageEditApiKey: 'k-123',
      sentryDsn: 'https://key@sentry.example/1',
      sentryEnvironment: 'staging',
    })
    expect(parseBuildEnv({ MODE: 'production', VITE_SENTRY_DSN: '   ', VITE_SENTRY_ENVIRONMENT: '' })).toMatchObject({
      sentryDsn: '',
      sentryEnvironment: '',
    })
  })

  it('rejects a bad value with a message naming the variable', () => {
    expect(() => parseBuildEnv({ MODE: 'production', VITE_SENTRY_DSN: 'not a url' })).toThrow(
      'Invalid build-time configuration (import.meta.env): VITE_SENTRY_DSN: must be an http(s) URL (a Sentry DSN), or empty',
    )
    expect(() => parseBuildEnv({ MODE: 'production', VITE_SENTRY_DSN: 'ftp://sentry.example/1' })).toThrow(/VITE_SENTRY_DSN/)
    expect(() => parseBuildEnv({ MODE: 'production', VITE_GOOGLE_CLIENT_ID: '"abc"' })).toThrow(
      /VITE_GOOGLE_CLIENT_ID: must be an OAuth client id/,
    )
    expect(() => parseBuildEnv({ MODE: 'production', VITE_IMAGE_EDIT_API_KEY: 'a b' })).toThrow(
      /VITE_IMAGE_EDIT_API_KEY: must not contain spaces/,
    )
    expect(() => parseBuildEnv({ MODE: 'production', VITE_GOOGLE_CLIENT_ID: 42 })).toThrow(/VITE_GOOGLE_CLIENT_ID: /)
    expect(() => parseBuildEnv({})).toThrow(/MODE: /)
  })
})
