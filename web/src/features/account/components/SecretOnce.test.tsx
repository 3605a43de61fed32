import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '@/lib/toast'
import { SecretOnce } from './SecretOnce'

vi.mock('@/lib/toast', () => ({ toast: Object.assign(vi.fn(), { error: vi.fn(), success: vi.fn(), clearErrors: vi.fn() }) }))

describe('SecretOnce', () => {
  const writeText = vi.fn<(text: string) => Promise<void>>()
  const onDismiss = vi.fn()

  beforeEach(() => {
    writeText.mockReset()
    onDismiss.mockReset()
    vi.mocked(toast.error).mockClear()
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    render(
      <SecretOnce title="Signing secret of https://x.test" secret="whsec_abc" noun="secret" secretLabel="Signing secret" testIdPrefix="thing" onDismiss={onDismiss} />,
    )
  })

  afterEach(() => {
    cleanup()
    Reflect.deleteProperty(navigator, 'clipboard')
  })

  it('shows the title, the warning and the secret, labelled by the title', () => {
    const panel = screen.getByRole('region', { name: 'Signing secret of https://x.test' })
    expect(panel.dataset.testid).toBe('thing-secret-panel')
    expect(panel.textContent).toContain('Copy this secret now: it will not be shown again.')
    expect(screen.getByLabelText('Signing secret').textContent).toBe('whsec_abc')
    expect(screen.getByTestId('thing-secret').textContent).toBe('whsec_abc')
  })

  it('copies the secret, then says Copied', async () => {
    writeText.mockResolvedValue(undefined)
    fireEvent.click(screen.getByTestId('thing-copy'))
    expect(writeText).toHaveBeenCalledWith('whsec_abc')
    await waitFor(() => expect(screen.getByTestId('thing-copy').textContent).toBe('Copied'))
  })

  it('says so when the secret could not be copied', async () => {
    writeText.mockRejectedValue(new Error('denied'))
    fireEvent.click(screen.getByTestId('thing-copy'))
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('The secret could not be copied. Select it and copy it by hand.'))
    expect(screen.getByTestId('thing-copy').textContent).toBe('Copy')
  })

  it('calls onDismiss on Done', () => {
    fireEvent.click(screen.getByTestId('thing-dismiss'))
    expect(onDismiss).toHaveBeenCalledOnce()
  })
})
