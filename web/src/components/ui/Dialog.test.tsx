import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useId, useState, type ReactNode } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { Dialog } from './Dialog'

/** An opener button and the dialog it opens; `body` is the dialog's content. */
function Harness({ body, initialFocus }: { body: ReactNode; initialFocus?: string }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Dialog title="Settings" onClose={() => setOpen(false)} initialFocus={initialFocus} testId="the-dialog">
          {body}
        </Dialog>
      )}
    </>
  )
}

const threeButtons = (
  <>
    <button type="button">One</button>
    <button type="button" data-autofocus>
      Two
    </button>
    <button type="button">Three</button>
  </>
)

async function open(body: ReactNode = threeButtons, initialFocus?: string) {
  render(<Harness body={body} initialFocus={initialFocus} />)
  const opener = screen.getByRole('button', { name: 'Open' })
  await userEvent.click(opener)
  return { opener, dialog: screen.getByRole('dialog', { name: 'Settings' }) }
}

describe('Dialog', () => {
  afterEach(cleanup)

  it('is a modal dialog named by its title, and focuses [data-autofocus] on open', async () => {
    const { dialog } = await open()
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Two' }))
    expect(document.body.style.overflow).toBe('hidden')
  })

  it('Escape closes it and focus returns to the opener', async () => {
    const { opener } = await open()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
    expect(document.body.style.overflow).toBe('')
  })

  it('the close button and the backdrop close it too', async () => {
    await open()
    await userEvent.click(screen.getByTestId('dialog-close'))
    expect(screen.queryByRole('dialog')).toBeNull()

    await userEvent.click(screen.getByRole('button', { name: 'Open' }))
    const backdrop = screen.getByTestId('the-dialog').querySelector('.modal__backdrop')!
    await userEvent.click(backdrop)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('Tab wraps from the last control to the first, Shift+Tab from the first to the last', async () => {
    await open()
    const close = screen.getByRole('button', { name: 'Close' })
    const last = screen.getByRole('button', { name: 'Three' })
    await userEvent.tab()
    expect(document.activeElement).toBe(last)
    await userEvent.tab()
    expect(document.activeElement).toBe(close)
    await userEvent.tab({ shift: true })
    expect(document.activeElement).toBe(last)
  })

  it("keeps a child's autoFocus, and still returns focus to the opener (not the child)", async () => {
    const { opener } = await open(
      <>
        <input aria-label="First" />
        <input aria-label="Second" autoFocus />
      </>,
      'input',
    )
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Second' }))
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(document.activeElement).toBe(opener)
  })

  it('gives focus to the page content (#main) when the opener went away meanwhile', async () => {
    function Swap() {
      const [open, setOpen] = useState(false)
      const [signedIn, setSignedIn] = useState(false)
      return (
        <>
          {signedIn ? (
            <button type="button" key="logout">
              Logout
            </button>
          ) : (
            <button type="button" key="login" onClick={() => setOpen(true)}>
              Login
            </button>
          )}
          <main id="main" tabIndex={-1}>
            Content
          </main>
          {open && (
            <Dialog title="Log in" onClose={() => setOpen(false)}>
              <button
                type="button"
                onClick={() => {
                  setSignedIn(true)
                  setOpen(false)
                }}
              >
                Sign in
              </button>
            </Dialog>
          )}
        </>
      )
    }
    render(<Swap />)
    await userEvent.click(screen.getByRole('button', { name: 'Login' }))
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement?.id).toBe('main')
  })

  it('falls back to the initialFocus selector, then to the panel itself', async () => {
    await open(<input aria-label="Only" />, 'input')
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Only' }))
    cleanup()

    const { dialog } = await open(<p>Nothing to focus.</p>)
    expect(document.activeElement).toBe(dialog)
  })

  it('can be named by a heading its children render (labelledBy)', async () => {
    function Named() {
      const id = useId()
      return (
        <Dialog labelledBy={id} onClose={() => undefined} className="extra" data={{ 'data-view': 'login' }} testId="named">
          <h1 id={id}>Log in</h1>
        </Dialog>
      )
    }
    render(<Named />)
    const dialog = screen.getByRole('dialog', { name: 'Log in' })
    expect(dialog.className).toBe('modal__panel extra')
    expect(screen.getByTestId('named').getAttribute('data-view')).toBe('login')
    expect(dialog.querySelector('h2')).toBeNull()
  })
})
