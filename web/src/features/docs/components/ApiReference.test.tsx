import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, expect, it } from 'vitest'
import ApiReference from './ApiReference'

afterEach(cleanup)

// Redoc itself, on the committed document: it renders the public operations and nothing else.
it('renders the public operations with Redoc, for the given origin', async () => {
  render(<ApiReference origin="https://shop.example" />)
  expect(await screen.findAllByText('Create Generation', {}, { timeout: 20_000 })).not.toHaveLength(0)
  const text = document.body.textContent ?? ''
  for (const summary of ['Upload', 'Get Generation', 'List Generations', 'Credits Available', 'Create Key']) {
    expect(text).toContain(summary)
  }
  expect(text).not.toContain('Login')
  expect(text).not.toContain('Checkout')
  expect(text).toContain('https://shop.example')
}, 30_000)

// axe's heading-order on /docs/api (issue 39 item 6): Redoc's h2 -> h5 jumps read as nested
// levels, under the page's h2 "Reference".
it("puts Redoc's headings in order under the page's Reference heading", async () => {
  render(<ApiReference origin="https://shop.example" />)
  await screen.findAllByText('Create Generation', {}, { timeout: 20_000 })
  await new Promise((resolve) => setTimeout(resolve, 50))
  const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]
  const levels = headings.map((h) => Number(h.getAttribute('aria-level') ?? h.tagName.slice(1)))
  expect(headings.length).toBeGreaterThan(10)
  expect(levels[0]).toBe(3)
  for (let i = 1; i < levels.length; i++) {
    expect(levels[i], `${headings[i]!.textContent} after ${headings[i - 1]!.textContent}`).toBeLessThanOrEqual(levels[i - 1]! + 1)
  }
}, 30_000)
