import { afterEach, describe, expect, it } from 'vitest'
import { queryClient } from '@/lib/queryClient'
import { siteConfigQueryOptions } from '@/api/siteConfig'
import type { AppConfig, PhotoAnalysis } from '@/types/api'
import { awaitAnalysis, validate } from './uploads'

const file = (bytes: number, type = 'image/jpeg') => new File([new Uint8Array(bytes)], 'photo.jpg', { type })

const config = (maxUploadBytes: number): AppConfig => ({
  maxUploadBytes,
  maxMegapixels: 48,
  minImageSide: 256,
  maxInputsPerGeneration: 20,
  acceptedTypes: ['image/jpeg', 'image/png', 'image/webp'],
  features: { googleLogin: false, showcase: true, contact: true },
})

describe('the upload check uses the server limit', () => {
  afterEach(() => queryClient.clear())

  it("applies the server's default before the config arrives", () => {
    expect(validate(file(1024))).toBeNull()
    expect(validate(file(21 * 1024 * 1024))).toMatch(/limit is 20(\.0)? MB/)
  })

  it('follows the limit the server reports', () => {
    queryClient.setQueryData(siteConfigQueryOptions.queryKey, config(1000))
    expect(validate(file(999))).toBeNull()
    expect(validate(file(1001))).toMatch(/the limit is/)
  })

  it('refuses types the server does not accept, and empty files', () => {
    queryClient.setQueryData(siteConfigQueryOptions.queryKey, { ...config(5000), acceptedTypes: ['image/png'] })
    expect(validate(file(10, 'image/jpeg'))).toMatch(/Unsupported file type/)
    expect(validate(file(0, 'image/png'))).toBe('The file is empty.')
  })
})

describe('a late photo analysis is asked for again', () => {
  const found: PhotoAnalysis = {
    kind: 'garment',
    people: 0,
    view: null,
    face: 'none',
    garment: 'top',
    can: { bodySwap: { ok: true, reason: null }, burstreplace: { ok: true, reason: null } },
  }

  it('until it is stored', async () => {
    const answers: Array<PhotoAnalysis | null> = [null, null, found]
    const asked: string[] = []
    const ask = (key: string) => {
      asked.push(key)
      return Promise.resolve(answers.shift() ?? null)
    }
    await expect(awaitAnalysis('u/1.jpg', new AbortController().signal, ask, 1)).resolves.toEqual(found)
    expect(asked).toEqual(['u/1.jpg', 'u/1.jpg', 'u/1.jpg'])
  })

  it('gives up after a few tries, or at once when the upload is removed or the call fails', async () => {
    let calls = 0
    const never = () => {
      calls++
      return Promise.resolve(null)
    }
    await expect(awaitAnalysis('k', new AbortController().signal, never, 1)).resolves.toBeNull()
    expect(calls).toBe(8)
    const removed = new AbortController()
    removed.abort()
    await expect(awaitAnalysis('k', removed.signal, never, 1)).resolves.toBeNull()
    expect(calls).toBe(8)
    await expect(awaitAnalysis('k', new AbortController().signal, () => Promise.reject(new Error('503')), 1)).resolves.toBeNull()
  })
})
