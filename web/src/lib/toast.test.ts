import { afterEach, describe, expect, it, vi } from 'vitest'

const sonner = vi.hoisted(() => ({
  toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn(), dismiss: vi.fn() }),
}))
vi.mock('sonner', () => sonner)

import { toast } from './toast'

describe('toast', () => {
  afterEach(() => vi.clearAllMocks())

  it('shows one toast per message, its id made of the tone and the message', () => {
    toast.error('The code is wrong.')
    expect(sonner.toast.error).toHaveBeenCalledWith('The code is wrong.', expect.objectContaining({ id: 'error:The code is wrong.' }))
  })

  it('clearErrors takes away the error toasts still shown, and only them', () => {
    toast.error('The code is wrong.')
    toast.error('Too many attempts.')
    toast.success('Welcome!')
    toast.clearErrors()
    expect(sonner.toast.dismiss.mock.calls.map(([id]) => id).sort()).toEqual(['error:The code is wrong.', 'error:Too many attempts.'])
    sonner.toast.dismiss.mockClear()
    toast.clearErrors() // nothing left to take away
    expect(sonner.toast.dismiss).not.toHaveBeenCalled()
  })

  it('a new error replaces a stale complaint about the form, and only that', () => {
    toast.error('The network is down.')
    toast.invalid('Please enter all the value')
    expect(sonner.toast.error).toHaveBeenLastCalledWith('Please enter all the value', expect.objectContaining({ id: 'error:Please enter all the value' }))
    toast.invalid('Please enter all the value') // the same complaint again: shown, not taken away
    expect(sonner.toast.dismiss).not.toHaveBeenCalled()
    toast.error('Incorrect email or password.')
    expect(sonner.toast.dismiss.mock.calls.map(([id]) => id)).toEqual(['error:Please enter all the value'])
    // The earlier server error is no complaint about the form: it stays until clearErrors.
    sonner.toast.dismiss.mockClear()
    toast.clearErrors()
    expect(sonner.toast.dismiss.mock.calls.map(([id]) => id).sort()).toEqual(['error:Incorrect email or password.', 'error:The network is down.'])
  })

  it('forgets an error toast that closed by itself', () => {
    toast.error('The code is wrong.')
    const options = sonner.toast.error.mock.calls[0]![1] as { onAutoClose: () => void }
    options.onAutoClose()
    toast.clearErrors()
    expect(sonner.toast.dismiss).not.toHaveBeenCalled()
  })
})
