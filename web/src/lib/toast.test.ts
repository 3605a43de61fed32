import { afterEach, describe, expect, it, vi } from 'vitest'

const sonner = vi.hoisted(() => ({
  toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn(), dismiss: vi.fn() }),
}))
vi.mock('sonner', () => sonner)

import { toast } from './toast'

/** Lets the calls waiting for sonner (loaded on demand) reach it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('toast', () => {
  afterEach(() => vi.clearAllMocks())

  it('shows one toast per message, its id made of the tone and the message', async () => {
    toast.error('The code is wrong.')
    await settle()
    expect(sonner.toast.error).toHaveBeenCalledWith('The code is wrong.', expect.objectContaining({ id: 'error:The code is wrong.' }))
  })

  it('clearErrors takes away the error toasts still shown, and only them', async () => {
    toast.error('The code is wrong.')
    toast.error('Too many attempts.')
    toast.success('Welcome!')
    toast.clearErrors()
    await settle()
    expect(sonner.toast.dismiss.mock.calls.map(([id]) => id).sort()).toEqual(['error:The code is wrong.', 'error:Too many attempts.'])
    sonner.toast.dismiss.mockClear()
    toast.clearErrors() // nothing left to take away
    await settle()
    expect(sonner.toast.dismiss).not.toHaveBeenCalled()
  })

  it('a new error replaces a stale complaint about the form, and only that', async () => {
    toast.error('The network is down.')
    toast.invalid('Please enter all the value')
    await settle()
    expect(sonner.toast.error).toHaveBeenLastCalledWith('Please enter all the value', expect.objectContaining({ id: 'error:Please enter all the value' }))
    toast.invalid('Please enter all the value') // the same complaint again: shown, not taken away
    await settle()
    expect(sonner.toast.dismiss).not.toHaveBeenCalled()
    toast.error('Incorrect email or password.')
    await settle()
    expect(sonner.toast.dismiss.mock.calls.map(([id]) => id)).toEqual(['error:Please enter all the value'])
    // The earlier server error is no complaint about the form: it stays until clearErrors.
    sonner.toast.dismiss.mockClear()
    toast.clearErrors()
    await settle()
    expect(sonner.toast.dismiss.mock.calls.map(([id]) => id).sort()).toEqual(['error:Incorrect email or password.', 'error:The network is down.'])
  })

  it('forgets an error toast that closed by itself', async () => {
    toast.error('The code is wrong.')
    await settle()
    const options = sonner.toast.error.mock.calls[0]![1] as { onAutoClose: () => void }
    options.onAutoClose()
    toast.clearErrors()
    await settle()
    expect(sonner.toast.dismiss).not.toHaveBeenCalled()
  })

  it('shows what was raised before sonner came in, in order, once it is in', async () => {
    vi.resetModules() // a fresh page: sonner not loaded yet
    const { toast: fresh } = await import('./toast')
    fresh.error('First.')
    fresh.success('Second.')
    fresh.clearErrors()
    expect(sonner.toast.error).not.toHaveBeenCalled() // not yet: sonner loads on demand
    await settle()
    expect(sonner.toast.error).toHaveBeenCalledWith('First.', expect.objectContaining({ id: 'error:First.' }))
    expect(sonner.toast.success).toHaveBeenCalledWith('Second.', expect.objectContaining({ id: 'success:Second.' }))
    expect(sonner.toast.dismiss.mock.calls.map(([id]) => id)).toEqual(['error:First.'])
    expect(sonner.toast.error.mock.invocationCallOrder[0]).toBeLessThan(sonner.toast.dismiss.mock.invocationCallOrder[0]!)
  })
})
