import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The key is a build-time setting; the test builds the module as if one were configured.
vi.mock('@/config', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/config')>()),
  IMAGE_EDIT_API_KEY: 'k-123',
}))

const { ApiError, request } = await import('./api')
const { setGuestToken } = await import('./identity')

type Call = { url: string; init: RequestInit }

describe('the image edit client', () => {
  const calls: Call[] = []

  beforeEach(() => {
    calls.length = 0
    setGuestToken('guest-token')
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        calls.push({ url, init })
        return Promise.resolve(new Response(JSON.stringify({ data: { ok: true } }), { status: 200 }))
      }),
    )
  })
  afterEach(() => vi.unstubAllGlobals())

  const header = (call: Call, name: string) => (call.init.headers as Record<string, string>)[name]

  it('sends x-api-key and a deadline to /imageedit only', async () => {
    await request('/imageedit/service/all', { query: { pageNumber: 1 } })
    await request('/api/v1/model')
    expect(header(calls[0]!, 'x-api-key')).toBe('k-123')
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal)
    expect(header(calls[1]!, 'x-api-key')).toBeUndefined()
    expect(calls[1]!.init.signal).toBeUndefined()
  })

  it('keeps the caller able to cancel an /imageedit request', async () => {
    const controller = new AbortController()
    await request('/imageedit/seed', { signal: controller.signal })
    const signal = calls[0]!.init.signal!
    expect(signal.aborted).toBe(false)
    controller.abort()
    expect(signal.aborted).toBe(true)
  })

  it('sends a fresh W3C traceparent to our own API, never to storage', async () => {
    const { fetchBlob } = await import('./api')
    await request('/imageedit/service/all')
    await request('/api/v1/model')
    await fetchBlob('http://127.0.0.1:9000/metamodel/outputs/x.jpg?X-Amz-Signature=s')
    const format = /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/
    expect(header(calls[0]!, 'traceparent')).toMatch(format)
    expect(header(calls[1]!, 'traceparent')).toMatch(format)
    expect(header(calls[0]!, 'traceparent')).not.toBe(header(calls[1]!, 'traceparent'))
    expect(calls[2]!.init.headers).toBeUndefined()
  })

  it('turns a timeout into an error a person understands', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new DOMException('timed out', 'TimeoutError'))))
    const error = await request('/imageedit/service/all').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as InstanceType<typeof ApiError>).message).toMatch(/took too long/)
  })
})
