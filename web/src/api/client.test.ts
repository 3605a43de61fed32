import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The key is a build-time setting; the test builds the module as if one were configured.
vi.mock('@/config', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/config')>()),
  IMAGE_EDIT_API_KEY: 'k-123',
}))

const { client, loginAsGuest, unwrap } = await import('./client')
const { ApiError, isSessionExpired } = await import('@/lib/api')
const { clearUserSession, getUserToken, guestFreeCreditsWithheld, saveUserSession, setGuestToken } = await import('@/lib/identity')

type Call = { url: string; init: RequestInit }

const header = (call: Call, name: string) => (call.init.headers as Record<string, string>)[name]

/** The ApiError a call fails with (the test fails when it does not). */
async function failure(call: Promise<unknown>): Promise<InstanceType<typeof ApiError>> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`)
  return err
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

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

  it('sends x-api-key and a deadline to /imageedit only', async () => {
    await client.GET('/imageedit/service/all', { params: { query: { pageNumber: 1 } } })
    await client.GET('/api/v1/model')
    expect(header(calls[0]!, 'x-api-key')).toBe('k-123')
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal)
    expect(header(calls[1]!, 'x-api-key')).toBeUndefined()
    expect(calls[1]!.init.signal).toBeUndefined()
  })

  it('keeps the caller able to cancel an /imageedit request', async () => {
    const controller = new AbortController()
    await client.GET('/imageedit/seed', { signal: controller.signal })
    const signal = calls[0]!.init.signal!
    expect(signal.aborted).toBe(false)
    controller.abort()
    expect(signal.aborted).toBe(true)
  })

  it('sends a fresh W3C traceparent to our own API, never to storage', async () => {
    const { fetchBlob } = await import('@/api/external')
    await client.GET('/imageedit/service/all')
    await client.GET('/api/v1/model')
    await fetchBlob('http://127.0.0.1:9000/metamodel/outputs/x.jpg?X-Amz-Signature=s')
    const format = /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/
    expect(header(calls[0]!, 'traceparent')).toMatch(format)
    expect(header(calls[1]!, 'traceparent')).toMatch(format)
    expect(header(calls[0]!, 'traceparent')).not.toBe(header(calls[1]!, 'traceparent'))
    expect(calls[2]!.init.headers).toBeUndefined()
  })

  it('turns a timeout into an error a person understands', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new DOMException('timed out', 'TimeoutError'))))
    const error = await client.GET('/imageedit/service/all').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as InstanceType<typeof ApiError>).message).toMatch(/took too long/)
  })
})

describe('the session middleware', () => {
  let routes: ((url: string, init: RequestInit) => Response | undefined)[]
  let fetchMock: ReturnType<typeof vi.fn<(url: string, init: RequestInit) => Promise<Response>>>
  const calls = () => fetchMock.mock.calls.map(([url, init]) => ({ url, init }))

  beforeEach(() => {
    localStorage.clear()
    routes = []
    fetchMock = vi.fn(async (url: string, init: RequestInit) => {
      for (const route of routes) {
        const found = route(url, init)
        if (found) return found
      }
      return json(404, { message: `no route for ${url}` })
    })
    vi.stubGlobal('fetch', fetchMock)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    clearUserSession()
  })

  const signIn = (token: string) => saveUserSession({ userEmail: 'ada@example.com', userToken: token, userName: 'Ada', userId: 'u-1' })

  it('sends the user token and the app headers, and opens the { data } envelope', async () => {
    signIn('user-1')
    routes.push((url) => (url === '/api/v1/user/userInfo' ? json(200, { data: { userEmail: 'ada@example.com' } }) : undefined))
    const info = await unwrap(client.GET('/api/v1/user/userInfo'))
    expect(info.userEmail).toBe('ada@example.com')
    const [call] = calls()
    expect(call!.url).toBe('/api/v1/user/userInfo')
    expect(call!.init.method).toBe('GET')
    expect(call!.init.credentials).toBe('same-origin')
    expect(header(call!, 'Authorization')).toBe('Bearer user-1')
    expect(header(call!, 'Accept')).toBe('application/json')
    expect(header(call!, 'x-distributor-id')).toBeTruthy()
    expect(header(call!, 'x-fingerprint-id')).toBeTruthy()
  })

  it("speaks for the session's own distributor, whatever this tab was opened with", async () => {
    // A partner's visitor (/?dbId=DIST9) opens a second tab: sessionStorage is per tab, the
    // guest token is not. The token's distributor goes with it, so the upload is not refused
    // as "another site"; with no session, the tab's own id is sent.
    const claims = btoa(JSON.stringify({ sub: 'acc-1', kind: 'guest', did: 'DIST9' })).replace(/=+$/, '')
    setGuestToken(`eyJhbGciOiJIUzI1NiJ9.${claims}.sig`)
    sessionStorage.clear()
    routes.push((url) => (url === '/imageedit/users/getCreditsForGuests' ? json(200, { data: { free: 3, paid: 0, total: 3 } }) : undefined))
    routes.push((url) => (url === '/api/v1/config' ? json(200, { data: {} }) : undefined))
    await unwrap(client.GET('/imageedit/users/getCreditsForGuests'))
    await client.GET('/api/v1/config')
    const [withSession, withoutSession] = calls()
    expect(header(withSession!, 'x-distributor-id')).toBe('DIST9')
    expect(header(withoutSession!, 'x-distributor-id')).not.toBe('DIST9')
  })

  it('logs in as a guest first when there is no session, and sends that token', async () => {
    routes.push((url) => (url === '/imageedit/users/guestlogin' ? json(200, { data: { token: 'guest-9', credits: 3 } }) : undefined))
    routes.push((url) => (url === '/imageedit/users/getCreditsForGuests' ? json(200, { data: { free: 3, paid: 0, total: 3 } }) : undefined))
    const credits = await unwrap(client.GET('/imageedit/users/getCreditsForGuests'))
    expect(credits.total).toBe(3)
    const [login, get] = calls()
    expect(login!.url).toBe('/imageedit/users/guestlogin')
    expect(header(login!, 'Authorization')).toBeUndefined()
    expect(JSON.parse(String(login!.init.body))).toEqual({ fingerprintId: expect.any(String) })
    expect(header(get!, 'Authorization')).toBe('Bearer guest-9')
    expect(guestFreeCreditsWithheld()).toBe(false)
  })

  it("browses the catalog without starting a guest session (each new guest may take one of the network's free grants)", async () => {
    routes.push((url) => (url === '/imageedit/users/guestlogin' ? json(200, { data: { token: 'guest-7', credits: 5 } }) : undefined))
    routes.push((url) => (url.startsWith('/api/v1/model') || url.startsWith('/imageedit/seed') || url.startsWith('/api/v1/sample') ? json(200, { data: { items: [] } }) : undefined))
    await client.GET('/api/v1/model')
    await client.GET('/api/v1/model/filters')
    await client.GET('/imageedit/seed')
    await client.GET('/api/v1/sample')
    expect(calls().map((c) => c.url.split('?')[0])).toEqual(['/api/v1/model', '/api/v1/model/filters', '/imageedit/seed', '/api/v1/sample'])
    expect(calls().every((c) => header(c, 'Authorization') === undefined)).toBe(true)
    // A guest's balance needs one: it starts it, and the catalog then goes with its token.
    routes.push((url) => (url === '/imageedit/users/getCreditsForGuests' ? json(200, { data: { free: 5, paid: 0, total: 5 } }) : undefined))
    await unwrap(client.GET('/imageedit/users/getCreditsForGuests'))
    await client.GET('/api/v1/model')
    const [login, balance, catalog] = calls().slice(4)
    expect(login!.url).toBe('/imageedit/users/guestlogin')
    expect(header(balance!, 'Authorization')).toBe('Bearer guest-7')
    expect(header(catalog!, 'Authorization')).toBe('Bearer guest-7')
  })

  it('asks for the plans without starting a guest session (/subscription shows them at once)', async () => {
    routes.push((url) => (url.startsWith('/api/v1/pricing') ? json(200, { data: { planVersion: 2, currency: 'USD', pricingInfo: [] } }) : undefined))
    await unwrap(client.GET('/api/v1/pricing', { params: { query: { planVersion: 2 } } }))
    expect(calls().map((c) => c.url)).toEqual(['/api/v1/pricing?planVersion=2'])
    expect(header(calls()[0]!, 'Authorization')).toBeUndefined()
  })

  it('remembers a guest login that granted no free credits, and forgets it at the next one', async () => {
    let withheld = true
    routes.push((url) => (url === '/imageedit/users/guestlogin' ? json(200, { data: { token: 'guest-0', credits: 0, freeCreditsWithheld: withheld } }) : undefined))
    await loginAsGuest()
    expect(guestFreeCreditsWithheld()).toBe(true)
    withheld = false
    await loginAsGuest()
    expect(guestFreeCreditsWithheld()).toBe(false)
  })

  it('sends calls made without a session without Authorization', async () => {
    signIn('user-1')
    routes.push(() => json(200, { data: { maxUploadBytes: 1, acceptedTypes: [] } }))
    await unwrap(client.GET('/api/v1/config'))
    expect(header(calls()[0]!, 'Authorization')).toBeUndefined()
  })

  it('writes queries as before: empty strings kept, null and undefined left out, JSON ids as a string', async () => {
    setGuestToken('guest-token')
    routes.push(() => json(200, { data: [] }))
    await client.GET('/api/v1/model', { params: { query: { pageNum: 1, category: '', visibility: undefined } } })
    await client.GET('/api/v1/task/pollTasks', { params: { query: { taskIds: JSON.stringify(['a', 'b']) } } })
    expect(calls()[0]!.url).toBe('/api/v1/model?pageNum=1&category=')
    expect(calls()[1]!.url).toBe(`/api/v1/task/pollTasks?taskIds=${encodeURIComponent('["a","b"]')}`)
  })

  it('posts a JSON body, and {} when the operation takes none', async () => {
    signIn('user-1')
    routes.push(() => json(200, { data: { status: 'canceled' } }))
    const message = { email: 'a@b.c', message: 'hi', name: 'A', topic: 'general' } as const
    await client.POST('/api/v1/contact', { body: message })
    await client.POST('/api/v1/payment/subscription/cancel')
    const [contact, cancel] = calls()
    expect(header(contact!, 'Content-Type')).toBe('application/json')
    expect(JSON.parse(String(contact!.init.body))).toEqual(message)
    expect(header(cancel!, 'Content-Type')).toBe('application/json')
    expect(cancel!.init.body).toBe('{}')
  })

  it('lets fetch write the content type of a form, with its own multipart boundary', async () => {
    signIn('user-1')
    routes.push(() => json(200, { data: { ok: true } }))
    const { postForm } = await import('./client')
    const form = new FormData()
    form.append('file', new Blob(['x'], { type: 'image/png' }), 'edit.png')
    await postForm('/api/v1/admin/edits/{taskId}', '/api/v1/admin/edits/t-1', form)
    const [call] = calls()
    expect(call!.init.body).toBe(form)
    // A Content-Type carried over from the Request would name a boundary the body has not.
    expect(header(call!, 'Content-Type')).toBeUndefined()
    expect(header(call!, 'Authorization')).toBe('Bearer user-1')
  })

  it('renews an expired user token once with the refresh cookie and replays the request', async () => {
    signIn('old')
    routes.push((url, init) => {
      if (url === '/api/v1/auth/refresh') return json(200, { data: { token: 'new' } })
      const auth = (init.headers as Record<string, string>).Authorization
      return auth === 'Bearer old' ? json(401, { message: 'expired' }) : json(200, { data: { userEmail: 'ada@example.com' } })
    })
    const info = await unwrap(client.GET('/api/v1/user/userInfo'))
    expect(info.userEmail).toBe('ada@example.com')
    expect(calls().map((c) => c.url)).toEqual(['/api/v1/user/userInfo', '/api/v1/auth/refresh', '/api/v1/user/userInfo'])
    const refresh = calls()[1]!
    expect(refresh.init.method).toBe('POST')
    expect(refresh.init.credentials).toBe('include')
    expect(header(refresh, 'Authorization')).toBeUndefined()
    expect(header(calls()[2]!, 'Authorization')).toBe('Bearer new')
    expect(getUserToken()).toBe('new')
  })

  it('ends the session (once) when the refresh cookie cannot renew it', async () => {
    signIn('dead')
    routes.push(() => json(401, { message: 'expired' }))
    const first = await client.GET('/api/v1/user/userInfo').catch((e: unknown) => e)
    const second = await client.GET('/api/v1/user/userInfo').catch((e: unknown) => e)
    expect(first).toBeInstanceOf(ApiError)
    expect((first as InstanceType<typeof ApiError>).message).toBe('Unauthorised')
    expect((first as InstanceType<typeof ApiError>).status).toBe(401)
    expect(isSessionExpired(first)).toBe(true)
    expect(isSessionExpired(second)).toBe(false)
    // Each call: the request, then one refresh; no second replay.
    expect(calls().map((c) => c.url)).toEqual([
      '/api/v1/user/userInfo',
      '/api/v1/auth/refresh',
      '/api/v1/user/userInfo',
      '/api/v1/auth/refresh',
    ])
  })

  it('logs in as a guest again on a 401 with the guest token, and replays with the same headers', async () => {
    setGuestToken('revoked')
    routes.push((url, init) => {
      if (url === '/imageedit/users/guestlogin') return json(200, { data: { token: 'guest-2', credits: 3 } })
      const auth = (init.headers as Record<string, string>).Authorization
      return auth === 'Bearer revoked' ? json(401, { message: 'bad token' }) : json(200, { data: { ok: true } })
    })
    await client.POST('/imageedit/service/feedback', {
      body: { taskId: 't', rating: 'up', comment: '' },
      headers: { 'Idempotency-Key': 'k-1' },
    })
    const [first, login, again] = calls()
    expect(login!.url).toBe('/imageedit/users/guestlogin')
    expect(header(again!, 'Authorization')).toBe('Bearer guest-2')
    expect(header(again!, 'Idempotency-Key')).toBe('k-1')
    expect(again!.init.body).toBe(first!.init.body)
  })

  it('throws the server message, or a fallback a person understands', async () => {
    setGuestToken('guest-token')
    routes.push((url) => (url === '/api/v1/model' ? json(402, { message: 'Top up first.' }) : undefined))
    routes.push((url) => (url === '/api/v1/model/categories' ? new Response('<html>bad gateway</html>', { status: 502 }) : undefined))
    routes.push((url) => (url === '/api/v1/sample' ? json(422, { detail: 'sampleType is wrong' }) : undefined))
    routes.push((url) => (url === '/imageedit/seed' ? json(429, {}) : undefined))
    const paid = await failure(client.GET('/api/v1/model'))
    expect(paid).toBeInstanceOf(ApiError)
    expect([paid.status, paid.message, paid.serverMessage]).toEqual([402, 'Top up first.', 'Top up first.'])
    const gateway = await failure(client.GET('/api/v1/model/categories'))
    expect([gateway.status, gateway.message, gateway.serverMessage]).toEqual([502, 'Request failed (502). Please try again.', null])
    expect((await failure(client.GET('/api/v1/sample'))).message).toBe('sampleType is wrong')
    expect((await failure(client.GET('/imageedit/seed'))).message).toBe('Too many requests. Please wait a moment and try again.')
  })

  it('maps network failures and unreadable answers to ApiError, and lets aborts through', async () => {
    setGuestToken('guest-token')
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    const offline = await failure(client.GET('/api/v1/model'))
    expect([offline.status, offline.message]).toEqual([0, "Can't reach the server. Check your connection and try again."])

    fetchMock.mockRejectedValueOnce(new DOMException('stop', 'AbortError'))
    const aborted = await client.GET('/api/v1/model').catch((e: unknown) => e)
    expect(aborted).toBeInstanceOf(DOMException)

    fetchMock.mockResolvedValueOnce(new Response('not json', { status: 200 }))
    const unreadable = await failure(client.GET('/api/v1/model'))
    expect([unreadable.status, unreadable.message]).toEqual([200, 'The server sent an unreadable response.'])
  })

  it('answers a 204 with undefined, and leaves answers without the envelope as they are', async () => {
    setGuestToken('guest-token')
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }))
    expect(await unwrap(client.DELETE('/imageedit/service/{service_id}', { params: { path: { service_id: 's 1' } } }))).toBeUndefined()
    expect(calls()[0]!.url).toBe('/imageedit/service/s%201')
    expect(calls()[0]!.init.method).toBe('DELETE')
    expect(calls()[0]!.init.body).toBeUndefined()
    fetchMock.mockResolvedValueOnce(json(201, { id: 'inq-1' }))
    expect(await unwrap(client.POST('/api/v1/inquiry', {
      body: { name: 'A', contact: '1', email: 'a@b.c', identifier: 'x', organization: 'O' },
    }))).toEqual({ id: 'inq-1' })
  })
})
