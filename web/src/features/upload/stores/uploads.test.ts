import { afterEach, describe, expect, it } from 'vitest'
import { queryClient } from '@/lib/queryClient'
import { siteConfigQueryOptions } from '@/lib/siteConfig'
import type { AppConfig } from '@/types/api'
import { validate } from './uploads'

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
