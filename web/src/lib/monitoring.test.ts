import { afterEach, describe, expect, it, vi } from 'vitest'

const init = vi.fn()
vi.mock('@sentry/react', () => ({
  init,
  browserTracingIntegration: () => ({ name: 'BrowserTracing' }),
  replayIntegration: () => ({ name: 'Replay' }),
}))

describe('browser monitoring', () => {
  afterEach(() => init.mockReset())

  it('stays off without a DSN', async () => {
    const { startMonitoring } = await import('./monitoring')
    expect(await startMonitoring('')).toBe(false)
    expect(init).not.toHaveBeenCalled()
  })

  it('starts with the spec sample rates and both integrations when a DSN is set', async () => {
    const { startMonitoring } = await import('./monitoring')
    expect(await startMonitoring('https://key@sentry.example/1')).toBe(true)
    const options = init.mock.calls[0]![0] as Record<string, unknown>
    expect(options).toMatchObject({
      dsn: 'https://key@sentry.example/1',
      tracesSampleRate: 1,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
    })
    expect((options.integrations as Array<{ name: string }>).map((i) => i.name)).toEqual(['BrowserTracing', 'Replay'])
  })

  it('sends tracing headers only to localhost and the app itself', async () => {
    const { sentryOptions } = await import('./monitoring')
    const targets = sentryOptions({ dsn: 'd', environment: 'e', origin: 'https://app.example' }).tracePropagationTargets
    const matches = (url: string) => targets.some((t) => (typeof t === 'string' ? url.includes(t) /* Sentry's substring rule */ : t.test(url)))
    expect(matches('http://localhost:8000/api/v1/model')).toBe(true)
    expect(matches('/api/v1/task/pollTasks')).toBe(true)
    expect(matches('https://app.example/imageedit/seed')).toBe(true)
    expect(matches('//storage.example/bucket/key')).toBe(false)
    expect(matches('http://localhost:9000/uploads/key.jpg?X-Amz-Signature=1')).toBe(false)
    expect(matches('https://storage.example/bucket/key?X-Amz-Signature=1')).toBe(false)
    expect(matches('https://app.example.evil.test/x')).toBe(false)
    expect(matches('https://www.googleapis.com/oauth2/v3/userinfo')).toBe(false)
  })
})
