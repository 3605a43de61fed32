import { afterEach, describe, expect, it } from 'vitest'
import { keepHeadingsOrdered, orderHeadings } from './headingLevels'

// What the accessibility tree reads: aria-level where set, else the tag's level.
const levels = (box: Element) =>
  [...box.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.getAttribute('aria-level') ?? h.tagName.slice(1)))

// Redoc's shape: its title, a tag, an operation, then h5 and h3 sections.
const REDOC = '<h1>API</h1><h2>public api</h2><h2>Create</h2><h5>Authorizations:</h5><h5>Body</h5><h3>Responses</h3><h5>Schema</h5><h3>Samples</h3>'

afterEach(() => {
  document.body.innerHTML = ''
})

describe('orderHeadings (Redoc on /docs/api, issue 39 item 6)', () => {
  it('nests the reference under the page heading, each section one level below its operation', () => {
    const box = document.createElement('div')
    box.innerHTML = REDOC
    orderHeadings(box, 2)
    expect(levels(box)).toEqual([3, 4, 4, 5, 5, 5, 6, 5])
    // Never more than one level deeper than the heading before (axe's heading-order).
    const found = levels(box)
    expect(found.every((level, i) => i === 0 || level <= found[i - 1]! + 1)).toBe(true)
    orderHeadings(box, 2)
    expect(levels(box)).toEqual([3, 4, 4, 5, 5, 5, 6, 5])
  })

  it('orders the headings Redoc adds later (it renders after loading, and on expanding)', async () => {
    const box = document.createElement('div')
    document.body.append(box)
    const stop = keepHeadingsOrdered(box, 2)
    box.innerHTML = REDOC
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(levels(box)).toEqual([3, 4, 4, 5, 5, 5, 6, 5])
    stop()
    box.insertAdjacentHTML('beforeend', '<h2>Delete</h2><h5>path Parameters</h5>')
    await new Promise((resolve) => setTimeout(resolve, 50))
    // No longer watched: Redoc's own levels.
    expect(levels(box).slice(-2)).toEqual([2, 5])
  })
})
