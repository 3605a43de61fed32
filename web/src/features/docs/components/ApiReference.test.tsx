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
