import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore, Provider } from 'jotai'
import { MemoryRouter, Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setGuestFreeCreditsWithheld } from '@/lib/identity'
import { authDispatchAtom } from '@/stores/auth'
import { ShortBalance } from './ShortBalance'

function renderNotice(signedIn = false) {
  const store = createStore()
  if (signedIn) {
    store.set(authDispatchAtom, {
      type: 'LOGIN',
      payload: { userEmail: 'ada@example.com', userToken: 't', userName: 'Ada', userId: 'u1' },
    })
  }
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/generate']}>
        <Routes>
          <Route path="/generate" element={<ShortBalance />} />
          <Route path="/signup" element={<p>the sign-up page</p>} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  )
}

describe('the short-balance notice', () => {
  beforeEach(() => localStorage.clear())
  afterEach(cleanup)

  it('tells a guest turned away from the free credits why, and offers the sign-up', async () => {
    setGuestFreeCreditsWithheld(true)
    renderNotice()
    expect(screen.getByText("Today's free guest credits are used up on this network")).toBeTruthy()
    expect(screen.getByText(/get 10 free credits/)).toBeTruthy()
    expect(screen.queryByText('Get more credits')).toBeNull()
    await userEvent.click(screen.getByTestId('short-balance-signup'))
    expect(screen.getByText('the sign-up page')).toBeTruthy()
  })

  it('offers more credits to a guest who spent theirs, and to a signed-in user', () => {
    renderNotice()
    expect(screen.getByText('Your balance may not cover this')).toBeTruthy()
    expect(screen.getByText('Get more credits').getAttribute('href')).toBe('/subscription')
    cleanup()
    setGuestFreeCreditsWithheld(true)
    renderNotice(true)
    expect(screen.getByText('Your balance may not cover this')).toBeTruthy()
    expect(screen.queryByTestId('short-balance-signup')).toBeNull()
  })
})
