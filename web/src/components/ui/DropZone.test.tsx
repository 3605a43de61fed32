import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DropZone } from './DropZone'

const file = (name: string) => new File(['x'], name, { type: 'image/png' })

function zone(props: { multiple?: boolean; disabled?: boolean; onFiles?: (files: File[]) => void } = {}) {
  const onFiles = props.onFiles ?? vi.fn()
  render(
    <DropZone
      title="Drop here"
      hint="PNG only"
      chooseLabel="Choose"
      accept={['image/png', 'image/jpeg']}
      multiple={props.multiple}
      disabled={props.disabled}
      onFiles={onFiles}
      testId="zone"
      chooseTestId="choose"
      inputTestId="input"
    />,
  )
  return onFiles
}

describe('DropZone', () => {
  afterEach(cleanup)

  it('offers one control: the button, described by the hint; the input is out of the tab order', () => {
    zone()
    const button = screen.getByRole('button', { name: 'Choose' })
    const hint = document.getElementById(button.getAttribute('aria-describedby') ?? '')
    expect(hint?.textContent).toBe('PNG only')
    const input = screen.getByTestId('input')
    expect(input.getAttribute('tabindex')).toBe('-1')
    expect(input.getAttribute('aria-hidden')).toBe('true')
    expect(input.getAttribute('accept')).toBe('image/png,image/jpeg')
  })

  it('the button opens the file chooser', () => {
    zone()
    const input = screen.getByTestId('input')
    const click = vi.spyOn(input, 'click')
    fireEvent.click(screen.getByRole('button', { name: 'Choose' }))
    expect(click).toHaveBeenCalledTimes(1)
  })

  it('hands over every dropped file when it takes several, the first one otherwise', () => {
    const many = zone({ multiple: true })
    fireEvent.drop(screen.getByTestId('zone'), { dataTransfer: { files: [file('a.png'), file('b.png')] } })
    expect(many).toHaveBeenCalledWith([expect.objectContaining({ name: 'a.png' }), expect.objectContaining({ name: 'b.png' })])
  })

  it('takes only the first file when it takes one, and nothing from an empty drop', () => {
    const one = vi.fn()
    zone({ onFiles: one })
    fireEvent.drop(screen.getByTestId('zone'), { dataTransfer: { files: [] } })
    expect(one).not.toHaveBeenCalled()
    fireEvent.change(screen.getByTestId('input'), { target: { files: [file('a.png'), file('b.png')] } })
    expect(one).toHaveBeenCalledWith([expect.objectContaining({ name: 'a.png' })])
    expect(one).toHaveBeenCalledTimes(1)
  })

  it('shows the drag state while a file is over it', () => {
    zone()
    const area = screen.getByTestId('zone')
    const idle = area.className
    fireEvent.dragOver(area)
    expect(area.className).not.toBe(idle)
    fireEvent.dragLeave(area)
    expect(area.className).toBe(idle)
  })

  it('a disabled zone disables its button', () => {
    zone({ disabled: true })
    expect((screen.getByRole('button', { name: 'Choose' }) as HTMLButtonElement).disabled).toBe(true)
  })
})
