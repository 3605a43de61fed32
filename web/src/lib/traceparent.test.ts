import { describe, expect, it } from 'vitest'
import { delegateTraceparent, isOwnApiPath, newTraceparent, traceparentFor } from './traceparent'

describe('traceparent', () => {
  it('is version 00 with random ids, sampled', () => {
    const [version, traceId, spanId, flags] = newTraceparent().split('-')
    expect(version).toBe('00')
    expect(traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(spanId).toMatch(/^[0-9a-f]{16}$/)
    expect(flags).toBe('01')
    expect(newTraceparent()).not.toBe(newTraceparent())
  })

  it('goes only to our own API paths, and not at all once Sentry traces', () => {
    expect(isOwnApiPath('/api/v1/model')).toBe(true)
    expect(isOwnApiPath('/imageedit/service/all')).toBe(true)
    expect(isOwnApiPath('http://127.0.0.1:9000/metamodel/x')).toBe(false)
    expect(isOwnApiPath('//evil.example/api/')).toBe(false)
    expect(traceparentFor('https://storage.example/x')).toBeNull()
    expect(traceparentFor('/api/v1/model')).not.toBeNull()
    delegateTraceparent()
    expect(traceparentFor('/api/v1/model')).toBeNull()
  })
})
