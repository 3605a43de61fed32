import { describe, expect, it } from 'vitest'
import type { GenerationImage } from '@/types/api'
import { creditsPerImage, failedImageNote, failureSummary } from './failures'

type Status = GenerationImage['status']
const images = (...statuses: Status[]) => statuses.map((status) => ({ status, sourceTaskId: null }))
const rerender = (status: Status) => ({ status, sourceTaskId: 'original' })

describe('failure banner wording', () => {
  it('says nothing when no image failed', () => {
    expect(failureSummary(images('completed', 'completed'), 2)).toBeNull()
    expect(failureSummary([], 0)).toBeNull()
  })

  it('one of several failed: "its" credits, singular or plural', () => {
    expect(failureSummary(images('completed', 'failed', 'completed', 'completed', 'completed'), 5)?.message).toBe(
      '1 of 5 images failed; its 1 credit was returned to your balance.',
    )
    expect(failureSummary(images('failed', 'completed'), 4)?.message).toBe(
      '1 of 2 images failed; its 2 credits were returned to your balance.',
    )
  })

  it('several of several failed: counts them and the credits per image times the failures', () => {
    const summary = failureSummary(images('failed', 'completed', 'failed', 'completed', 'completed'), 10)
    expect(summary).toEqual({
      failed: 2,
      total: 5,
      returned: 4,
      message: '2 of 5 images failed; their 4 credits were returned to your balance.',
    })
  })

  it('all failed', () => {
    expect(failureSummary(images('failed', 'failed', 'failed'), 3)?.message).toBe(
      'All 3 images failed; their 3 credits were returned to your balance.',
    )
    expect(failureSummary(images('failed'), 1)?.message).toBe('The image failed; its 1 credit was returned to your balance.')
  })

  it('claims no credits back when the generation had none to give', () => {
    expect(failureSummary(images('failed', 'completed'), 0)?.message).toBe('1 of 2 images failed; no credits were taken for it.')
    expect(failureSummary(images('failed', 'failed'), 0)?.message).toBe('All 2 images failed; no credits were taken for them.')
  })

  it('leaves free re-renders out of the count and the share', () => {
    const all = [...images('completed', 'failed'), rerender('failed'), rerender('completed')]
    expect(creditsPerImage(all, 2)).toBe(1)
    expect(failureSummary(all, 2)?.message).toBe('1 of 2 images failed; its 1 credit was returned to your balance.')
    expect(failureSummary([...images('completed'), rerender('failed')], 1)).toBeNull()
  })
})

describe('failed tile note', () => {
  it('names the credits the image gave back, and none for a free re-render', () => {
    const all = images('failed', 'completed', 'completed')
    expect(failedImageNote(all[0]!, all, 6)).toBe('Its 2 credits were returned to your balance.')
    expect(failedImageNote(all[0]!, all, 3)).toBe('Its 1 credit was returned to your balance.')
    expect(failedImageNote(rerender('failed'), all, 3)).toBe('Re-renders are free: nothing was charged for this one.')
  })
})
