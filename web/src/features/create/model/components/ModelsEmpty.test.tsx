import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ModelsEmpty } from './ModelsEmpty'

function renderEmpty(props: { category?: string; filtered?: boolean; isAdmin?: boolean; onShowAll?: () => void }) {
  render(
    <MemoryRouter>
      <ModelsEmpty category={props.category ?? ''} filtered={props.filtered} isAdmin={props.isAdmin ?? false} onShowAll={props.onShowAll ?? vi.fn()} />
    </MemoryRouter>,
  )
}

describe('ModelsEmpty', () => {
  afterEach(cleanup)

  it('says the catalog is empty, without the admin link for users and guests', () => {
    renderEmpty({})
    expect(screen.getByTestId('models-empty').textContent).toContain('No digital models are available yet')
    expect(screen.queryByTestId('models-empty-admin-link')).toBeNull()
  })

  it('links an admin to /digital-models', () => {
    renderEmpty({ isAdmin: true })
    expect(screen.getByTestId('models-empty-admin-link').getAttribute('href')).toBe('/digital-models')
  })

  it('in a category without models, offers to show all', async () => {
    const onShowAll = vi.fn()
    renderEmpty({ category: 'street', isAdmin: true, onShowAll })
    expect(screen.getByTestId('models-empty').textContent).toContain('No models in “street”')
    expect(screen.queryByTestId('models-empty-admin-link')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Show all models' }))
    expect(onShowAll).toHaveBeenCalledOnce()
  })

  it('with a gender, skin tone or body type filter, says nothing matches and offers "Clear filters"', async () => {
    const onShowAll = vi.fn()
    renderEmpty({ category: 'street', filtered: true, isAdmin: true, onShowAll })
    expect(screen.getByTestId('models-empty').textContent).toContain('No models match these filters in “street”')
    expect(screen.queryByTestId('models-empty-admin-link')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }))
    expect(onShowAll).toHaveBeenCalledOnce()
  })
})
