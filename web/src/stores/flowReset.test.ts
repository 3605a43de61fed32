import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => {
  sessionStorage.clear()
  vi.resetModules()
})

describe('resetCreateFlow', () => {
  it('drops the saved flow while the flow’s store has not loaded', async () => {
    sessionStorage.setItem('mm:stepsflow', '{"isGeneratedClicked":true}')
    const { resetCreateFlow } = await import('./flowReset')
    resetCreateFlow()
    expect(sessionStorage.getItem('mm:stepsflow')).toBeNull()
  })

  it('runs the reset the flow’s store registered', async () => {
    const { registerFlowReset, resetCreateFlow } = await import('./flowReset')
    const reset = vi.fn()
    registerFlowReset(reset)
    resetCreateFlow()
    expect(reset).toHaveBeenCalledOnce()
  })
})
