import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from './api'
import { onSessionExpired, queryClient, runMutation, shouldRetry } from './queryClient'

describe('retries', () => {
  it('never retries a client error, retries others up to the limit', () => {
    expect(shouldRetry(0, new ApiError(400, 'bad'))).toBe(false)
    expect(shouldRetry(0, new ApiError(404, 'gone'))).toBe(false)
    expect(shouldRetry(0, new ApiError(0, 'offline'))).toBe(true)
    expect(shouldRetry(1, new ApiError(503, 'busy'))).toBe(true)
    expect(shouldRetry(2, new ApiError(503, 'busy'))).toBe(false)
    expect(shouldRetry(0, new TypeError('boom'))).toBe(true)
  })
})

describe('session expiry, handled once for queries and mutations', () => {
  afterEach(() => {
    onSessionExpired(null)
    queryClient.clear()
  })

  it('a query or mutation failing with an ended session calls the handler; other errors do not', async () => {
    const handler = vi.fn()
    onSessionExpired(handler)
    const expired = new ApiError(401, 'Unauthorised', null, true)

    await expect(queryClient.fetchQuery({ queryKey: ['x'], queryFn: () => Promise.reject(expired) })).rejects.toBe(expired)
    expect(handler).toHaveBeenCalledTimes(1)

    await expect(runMutation(() => Promise.reject(expired), undefined)).rejects.toBe(expired)
    expect(handler).toHaveBeenCalledTimes(2)

    await expect(
      queryClient.fetchQuery({ queryKey: ['y'], queryFn: () => Promise.reject(new ApiError(401, 'Unauthorised')) }),
    ).rejects.toBeInstanceOf(ApiError)
    await expect(runMutation(() => Promise.reject(new ApiError(500, 'boom')), 1)).rejects.toBeInstanceOf(ApiError)
    expect(handler).toHaveBeenCalledTimes(2)
  })
})
