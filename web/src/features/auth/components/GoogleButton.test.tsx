import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { GOOGLE_UNAVAILABLE, GoogleButton } from './GoogleButton'

// The test build has no Google client id (config reads VITE_GOOGLE_CLIENT_ID, unset here).
vi.mock('@/config', async (original) => ({ ...(await original<typeof import('@/config')>()), GOOGLE_CLIENT_ID: '' }))

describe('GoogleButton without a client id', () => {
  afterEach(cleanup)

  it('is disabled and says why, in words tied to the button', () => {
    render(<GoogleButton rememberMe={false} onLoggedIn={() => {}} />)
    const button = screen.getByTestId('google-login') as HTMLButtonElement
    expect(button.disabled).toBe(true)
    const note = screen.getByTestId('google-unavailable')
    expect(note.textContent).toBe(GOOGLE_UNAVAILABLE)
    expect(button.getAttribute('aria-describedby')).toBe(note.id)
  })
})
