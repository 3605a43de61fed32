import { describe, expect, it } from 'vitest'
import { orderedSelection, prune, selectionState, toggle, toggleAll } from './selection'

const set = (...ids: string[]) => new Set(ids)

describe('selection', () => {
  it('toggles one image in and out without changing the original set', () => {
    const none = set()
    const one = toggle(none, 'a')
    expect([...one]).toEqual(['a'])
    expect(none.size).toBe(0)
    expect([...toggle(one, 'a')]).toEqual([])
  })

  it('tells none, some or all of the shown images', () => {
    const shown = ['a', 'b', 'c']
    expect(selectionState(set(), shown)).toBe('none')
    expect(selectionState(set('b'), shown)).toBe('some')
    expect(selectionState(set('a', 'b', 'c'), shown)).toBe('all')
    // Chosen ids that are not shown do not count; nothing shown is never "all".
    expect(selectionState(set('x'), shown)).toBe('none')
    expect(selectionState(set('a'), [])).toBe('none')
  })

  it('"select all" chooses every shown image, and clears them when all were chosen', () => {
    const shown = ['a', 'b', 'c']
    const all = toggleAll(set('b'), shown)
    expect([...all].sort()).toEqual(['a', 'b', 'c'])
    expect([...toggleAll(all, shown)]).toEqual([])
    // Clearing keeps choices outside the shown ones.
    expect([...toggleAll(set('a', 'b', 'c', 'x'), shown)]).toEqual(['x'])
  })

  it('forgets images that are gone (deleted, filtered out), keeping the same set when nothing is', () => {
    const chosen = set('a', 'b', 'c')
    expect([...prune(chosen, ['a', 'c', 'd'])].sort()).toEqual(['a', 'c'])
    expect(prune(chosen, ['a', 'b', 'c', 'd'])).toBe(chosen)
    expect(prune(chosen, []).size).toBe(0)
  })

  it('lists the chosen ids in the order they are shown (the ZIP follows it)', () => {
    expect(orderedSelection(set('c', 'a'), ['a', 'b', 'c'])).toEqual(['a', 'c'])
  })
})
