import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ImageViewer, type ViewerItem } from './ImageViewer'

const item = (n: number, extra: Partial<ViewerItem> = {}): ViewerItem => ({
  id: `t-${n}`,
  title: `Image ${n}`,
  versions: [{ label: 'Generated', url: `http://s3/o/${n}.jpg`, alt: `Generated image ${n}, full size` }],
  inputUrl: `http://s3/in/${n}.jpg`,
  downloads: [{ url: `http://s3/o/${n}.jpg`, fileBaseName: `metamodel-t-${n}`, label: 'Download the original', text: 'Download original' }],
  ...extra,
})

const ITEMS = [
  item(1),
  item(2, {
    versions: [
      { label: 'Generated', url: 'http://s3/o/2.jpg', alt: 'Generated image 2, full size' },
      { label: 'Edited', url: 'http://s3/e/2.jpg', alt: 'Edited image 2, full size' },
    ],
  }),
  item(3, { inputUrl: null }),
]

function Harness({ start = 0, onClose = () => {} }: { start?: number; onClose?: () => void }) {
  const [index, setIndex] = useState(start)
  return <ImageViewer items={ITEMS} index={index} onIndexChange={setIndex} onClose={onClose} />
}

const counter = () => screen.getByTestId('viewer-counter').textContent
const shown = () => screen.getByTestId('viewer-image').getAttribute('src')
const zoom = () => screen.getByTestId('viewer-zoom').textContent
const stageZoom = () => screen.getByTestId('viewer-stage').dataset.zoom

afterEach(() => cleanup())

describe('ImageViewer', () => {
  it('walks the list with → and ←, stops at its ends, and Escape closes', async () => {
    const onClose = vi.fn()
    render(<Harness onClose={onClose} />)
    expect(screen.getByRole('dialog', { name: 'Image 1' })).toBeTruthy()
    expect(counter()).toBe('1 of 3')
    expect(shown()).toBe('http://s3/o/1.jpg')

    await userEvent.keyboard('{ArrowRight}')
    expect(counter()).toBe('2 of 3')
    expect(shown()).toBe('http://s3/o/2.jpg')
    expect(screen.getByRole('dialog', { name: 'Image 2' })).toBeTruthy()
    await userEvent.keyboard('{ArrowRight}{ArrowRight}')
    expect(counter()).toBe('3 of 3')
    expect((screen.getByRole('button', { name: 'Next image' }) as HTMLButtonElement).disabled).toBe(true)

    await userEvent.keyboard('{ArrowLeft}')
    expect(counter()).toBe('2 of 3')
    await userEvent.click(screen.getByRole('button', { name: 'Previous image' }))
    expect(counter()).toBe('1 of 3')
    await userEvent.keyboard('{ArrowLeft}')
    expect(counter()).toBe('1 of 3')

    expect(onClose).not.toHaveBeenCalled()
    await userEvent.keyboard('{Escape}')
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('zooms with the buttons, the keys, the wheel and a double-click; Fit and 0 reset', async () => {
    render(<Harness />)
    expect(zoom()).toBe('100%')
    expect((screen.getByRole('button', { name: 'Zoom out' }) as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Fit to the window' }) as HTMLButtonElement).disabled).toBe(true)

    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }))
    expect(zoom()).toBe('150%')
    await userEvent.click(screen.getByRole('button', { name: 'Zoom in' }))
    expect(zoom()).toBe('200%')
    expect(stageZoom()).toBe('2')
    expect(screen.getByTestId('viewer-image').style.transform).toContain('scale(2)')
    await userEvent.click(screen.getByRole('button', { name: 'Zoom out' }))
    expect(zoom()).toBe('150%')
    await userEvent.click(screen.getByRole('button', { name: 'Fit to the window' }))
    expect(zoom()).toBe('100%')
    expect(stageZoom()).toBe('1')

    await userEvent.keyboard('++')
    expect(zoom()).toBe('200%')
    await userEvent.keyboard('-')
    expect(zoom()).toBe('150%')
    await userEvent.keyboard('0')
    expect(zoom()).toBe('100%')

    fireEvent.wheel(screen.getByTestId('viewer-stage'), { deltaY: -100 })
    expect(zoom()).toBe('120%')
    fireEvent.wheel(screen.getByTestId('viewer-stage'), { deltaY: 100 })
    expect(zoom()).toBe('100%')

    fireEvent.doubleClick(screen.getByTestId('viewer-stage'))
    expect(zoom()).toBe('200%')
    // Another image starts at fit again.
    await userEvent.keyboard('{ArrowRight}')
    expect(zoom()).toBe('100%')
    fireEvent.doubleClick(screen.getByTestId('viewer-stage'))
    expect(zoom()).toBe('200%')
    fireEvent.doubleClick(screen.getByTestId('viewer-stage'))
    expect(zoom()).toBe('100%')
  })

  it('compares the output with its input (C or the button), both images shown', async () => {
    render(<Harness />)
    const toggle = screen.getByRole('button', { name: 'Compare with input' })
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    expect(screen.queryByTestId('viewer-compare')).toBeNull()

    await userEvent.keyboard('c')
    const frame = screen.getByTestId('viewer-compare')
    expect(toggle.getAttribute('aria-pressed')).toBe('true')
    expect(within(frame).getByAltText('Before: Generated image 1, full size').getAttribute('src')).toBe('http://s3/in/1.jpg')
    expect(within(frame).getByAltText('After: Generated image 1, full size').getAttribute('src')).toBe('http://s3/o/1.jpg')
    expect(within(frame).getByRole('slider', { name: /Compare before and after/ })).toBeTruthy()
    expect(screen.queryByTestId('viewer-image')).toBeNull()
    // No zooming while comparing.
    expect((screen.getByRole('button', { name: 'Zoom in' }) as HTMLButtonElement).disabled).toBe(true)

    // Compare stays on while browsing; it follows the version switch.
    await userEvent.keyboard('{ArrowRight}')
    expect(screen.getByTestId('viewer-compare-image-before').getAttribute('src')).toBe('http://s3/in/2.jpg')
    await userEvent.click(screen.getByRole('button', { name: 'Edited' }))
    expect(screen.getByTestId('viewer-compare-image-after').getAttribute('src')).toBe('http://s3/e/2.jpg')

    // The slider keeps its arrows; C still closes the compare.
    screen.getByRole('slider', { name: /Compare before and after/ }).focus()
    await userEvent.keyboard('{ArrowRight}')
    expect(counter()).toBe('2 of 3')
    await userEvent.keyboard('c')
    expect(screen.queryByTestId('viewer-compare')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Compare with input' }))
    expect(screen.getByTestId('viewer-compare')).toBeTruthy()
    await userEvent.click(screen.getByRole('button', { name: 'Compare with input' }))
    expect(screen.queryByTestId('viewer-compare')).toBeNull()
    expect(shown()).toBe('http://s3/e/2.jpg')

    // An image without an input offers no compare.
    await userEvent.keyboard('{ArrowRight}')
    expect(screen.queryByRole('button', { name: 'Compare with input' })).toBeNull()
    await userEvent.keyboard('c')
    expect(screen.queryByTestId('viewer-compare')).toBeNull()
  })

  it('switches Generated/Edited and keeps the downloads', async () => {
    render(<Harness start={1} />)
    const versions = within(screen.getByRole('group', { name: 'Version' }))
    expect(versions.getByRole('button', { name: 'Generated' }).getAttribute('aria-pressed')).toBe('true')
    await userEvent.click(versions.getByRole('button', { name: 'Edited' }))
    expect(shown()).toBe('http://s3/e/2.jpg')
    expect(screen.getByAltText('Edited image 2, full size')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Download the original' })).toBeTruthy()
  })
})
