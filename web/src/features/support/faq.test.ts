import { describe, expect, it } from 'vitest'
import type { AppConfig } from '@/types/api'
import { buildFaq, filterFaq, normalizeSearch } from './faq'

const config: AppConfig = {
  maxUploadBytes: 20 * 1024 * 1024,
  maxMegapixels: 40,
  minImageSide: 256,
  maxInputsPerGeneration: 20,
  acceptedTypes: ['image/jpeg', 'image/png', 'image/webp'],
  features: { googleLogin: true, showcase: true, contact: true },
}

const faq = buildFaq({ config })
const ids = (query: string) => filterFaq(faq, query).map((e) => e.id)

describe('buildFaq', () => {
  it('quotes the server limits', () => {
    const formats = faq.find((e) => e.id === 'formats')!
    expect(formats.answer[0]).toBe(
      'JPEG, PNG or WebP photos, up to 20 MB and 40 megapixels each, and at least 256 pixels on the short side. ' +
        'One generation takes up to 20 photos.',
    )
    const other = buildFaq({ config: { ...config, maxUploadBytes: 15.5 * 1024 * 1024, acceptedTypes: ['image/png'] } })
    expect(other.find((e) => e.id === 'formats')!.answer[0]).toMatch(/^PNG photos, up to 15\.5 MB/)
  })

  it('says when the limits are loading or could not be loaded', () => {
    expect(buildFaq({ loading: true }).find((e) => e.id === 'formats')!.answer).toEqual(['Loading the current limits…'])
    expect(buildFaq({ error: 'Offline' }).find((e) => e.id === 'formats')!.answer[0]).toContain('Offline')
  })

  it('covers every topic the help page promises', () => {
    expect(new Set(faq.map((e) => e.topic))).toEqual(new Set(['credits', 'limits', 'time', 'privacy', 'accounts']))
  })
})

describe('filterFaq', () => {
  it('returns everything for a blank query', () => {
    expect(filterFaq(faq, '')).toHaveLength(faq.length)
    expect(filterFaq(faq, '   ')).toHaveLength(faq.length)
  })

  it('matches question text, case-insensitively', () => {
    expect(ids('HOW LONG DOES')).toEqual(['duration'])
    expect(ids('Need an ACCOUNT')).toEqual(['guest'])
  })

  it('matches answer text too', () => {
    // "megapixels" is only in the answer about formats.
    expect(ids('megapixels')).toEqual(['formats'])
    expect(ids('zip')).toEqual(['downloads'])
  })

  it('needs every word, in any order, ignoring accents and extra spaces', () => {
    expect(ids('finished   refunds')).toEqual(['unhappy'])
    expect(ids('refunds finished')).toEqual(['unhappy'])
    expect(ids('délété')).toEqual(ids('delete'))
    expect(ids('delete')).toContain('delete')
  })

  it('matches the topic name and finds nothing for unrelated words', () => {
    expect(ids('privacy')).toEqual(['who-sees', 'delete'])
    expect(ids('blockchain')).toEqual([])
    expect(ids('megapixels blockchain')).toEqual([])
  })
})

describe('normalizeSearch', () => {
  it('lower-cases, strips accents and collapses spaces', () => {
    expect(normalizeSearch('  Crédits   ET  Refunds ')).toBe('credits et refunds')
  })
})
