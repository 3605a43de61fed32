import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/toast'
import { ConfirmAction } from './ConfirmAction'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn(), clearErrors: vi.fn() }) }))

function renderAction(onConfirm: () => Promise<void>, pending = false) {
  return render(
    <ConfirmAction
      action="Remove"
      question="Remove this thing?"
      confirm="Yes, remove"
      pendingLabel="Removing"
      groupLabel="Confirm removing the thing"
      pending={pending}
      testId="thing-remove"
      onConfirm={onConfirm}
    />,
  )
}

describe('ConfirmAction', () => {
  afterEach(() => {
    cleanup()
    vi.mocked(toast.error).mockClear()
  })

  it('asks first, and Keep goes back without acting', () => {
    const onConfirm = vi.fn(() => Promise.resolve())
    renderAction(onConfirm)
    fireEvent.click(screen.getByTestId('thing-remove'))
    const group = screen.getByRole('group', { name: 'Confirm removing the thing' })
    expect(group.textContent).toContain('Remove this thing?')
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }))
    expect(onConfirm).not.toHaveBeenCalled()
    expect(screen.getByTestId('thing-remove').textContent).toBe('Remove')
  })

  it('acts on "Yes, …"', () => {
    const onConfirm = vi.fn(() => Promise.resolve())
    renderAction(onConfirm)
    fireEvent.click(screen.getByTestId('thing-remove'))
    fireEvent.click(screen.getByTestId('thing-remove-confirm'))
    expect(onConfirm).toHaveBeenCalledOnce()
  })

  it('toasts the error and closes the question when acting fails', async () => {
    renderAction(() => Promise.reject(new Error('Nope.')))
    fireEvent.click(screen.getByTestId('thing-remove'))
    fireEvent.click(screen.getByTestId('thing-remove-confirm'))
    await waitFor(() => expect(toast.error).toHaveBeenCalled())
    await waitFor(() => expect(screen.queryByRole('group')).toBeNull())
  })

  it('disables both answers while pending', () => {
    renderAction(() => Promise.resolve(), true)
    fireEvent.click(screen.getByTestId('thing-remove'))
    expect((screen.getByTestId('thing-remove-confirm') as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Keep' }) as HTMLButtonElement).disabled).toBe(true)
  })
})
