import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRef, useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { useFocusTrap } from './useFocusTrap'

/** A page with a control before and after a drawer of three controls (one hidden, one inert). */
function Page() {
  const [open, setOpen] = useState(false)
  const opener = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLDivElement>(null)
  useFocusTrap(panel, { active: open, onEscape: () => setOpen(false), returnFocusTo: opener })
  return (
    <>
      <button type="button" ref={opener} onClick={() => setOpen(true)}>
        Menu
      </button>
      {open && (
        <div role="dialog" aria-modal="true" aria-label="Drawer" ref={panel} tabIndex={-1}>
          <a href="#one">One</a>
          <button type="button" style={{ display: 'none' }}>
            Hidden
          </button>
          <input aria-label="Skipped" tabIndex={-1} />
          <button type="button">Two</button>
          <a href="#three" onClick={() => setOpen(false)}>
            Three
          </a>
        </div>
      )}
      <button type="button">Behind</button>
    </>
  )
}

async function openDrawer() {
  render(<Page />)
  const opener = screen.getByRole('button', { name: 'Menu' })
  await userEvent.click(opener)
  return opener
}

const focused = () => (document.activeElement as HTMLElement | null)?.textContent

describe('useFocusTrap', () => {
  afterEach(cleanup)

  it('moves focus to the first control when it activates', async () => {
    await openDrawer()
    expect(focused()).toBe('One')
  })

  it('keeps Tab and Shift+Tab inside, skipping hidden and tabindex=-1 controls', async () => {
    await openDrawer()
    const seen: (string | null | undefined)[] = []
    for (let i = 0; i < 7; i++) {
      await userEvent.tab()
      seen.push(focused())
    }
    expect(seen).toEqual(['Two', 'Three', 'One', 'Two', 'Three', 'One', 'Two'])
    await userEvent.tab({ shift: true })
    await userEvent.tab({ shift: true })
    expect(focused()).toBe('Three')
  })

  it('keeps Shift+Tab inside when focus is on the panel itself (after a click on its background)', async () => {
    await openDrawer()
    screen.getByRole('dialog').focus()
    await userEvent.tab({ shift: true })
    expect(focused()).toBe('Three')
  })

  it('lets go of Tab while the drawer is not rendered (hidden by a media query at a wider window)', async () => {
    await openDrawer()
    screen.getByRole('dialog').style.display = 'none'
    screen.getByRole('button', { name: 'Menu' }).focus()
    await userEvent.tab()
    expect(focused()).toBe('Behind')
  })

  it('Escape calls onEscape and focus returns to the opener', async () => {
    const opener = await openDrawer()
    await userEvent.tab()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
  })

  it('focus returns to the opener when a control inside closes it', async () => {
    const opener = await openDrawer()
    await userEvent.click(screen.getByText('Three'))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
  })

  it('leaves focus where it is when something else took it before the trap let go', async () => {
    function Elsewhere() {
      const [open, setOpen] = useState(true)
      const opener = useRef<HTMLButtonElement>(null)
      const panel = useRef<HTMLDivElement>(null)
      const other = useRef<HTMLButtonElement>(null)
      useFocusTrap(panel, { active: open, returnFocusTo: opener })
      return (
        <>
          <button type="button" ref={opener}>
            Menu
          </button>
          <button type="button" ref={other}>
            Other
          </button>
          <div ref={panel}>
            <button
              type="button"
              onClick={() => {
                other.current?.focus()
                setOpen(false)
              }}
            >
              Go
            </button>
          </div>
        </>
      )
    }
    render(<Elsewhere />)
    expect(focused()).toBe('Go')
    await userEvent.click(screen.getByText('Go'))
    expect(focused()).toBe('Other')
    // Inactive now: Tab is the browser's again.
    await userEvent.tab()
    expect(focused()).toBe('Go')
  })
})
