/**
 * Which images are chosen for a ZIP download. Pure functions over a set of image ids, so the
 * page's rules (toggle one, select or clear all visible, forget what is gone) are unit-tested.
 */
export type Selection = ReadonlySet<string>

export type SelectionState = 'none' | 'some' | 'all'

export function toggle(selection: Selection, id: string): Selection {
  const next = new Set(selection)
  if (next.has(id)) next.delete(id)
  else next.add(id)
  return next
}

/** Whether none, some or all of `ids` are chosen ('none' when there are no ids). */
export function selectionState(selection: Selection, ids: readonly string[]): SelectionState {
  if (ids.length === 0) return 'none'
  const chosen = ids.filter((id) => selection.has(id)).length
  return chosen === 0 ? 'none' : chosen === ids.length ? 'all' : 'some'
}

/** The "select all" box: chooses every id, or clears them when all already are. */
export function toggleAll(selection: Selection, ids: readonly string[]): Selection {
  if (selectionState(selection, ids) === 'all') {
    const next = new Set(selection)
    for (const id of ids) next.delete(id)
    return next
  }
  return new Set([...selection, ...ids])
}

/** Keeps only the ids that can still be chosen (after a delete, a filter or a page change).
 *  Answers the same set when nothing was dropped, so a state update can be skipped. */
export function prune(selection: Selection, available: readonly string[]): Selection {
  const keep = new Set(available)
  if ([...selection].every((id) => keep.has(id))) return selection
  return new Set([...selection].filter((id) => keep.has(id)))
}

/** The chosen ids in the order they are shown (the ZIP's entries follow it). */
export function orderedSelection(selection: Selection, shown: readonly string[]): string[] {
  return shown.filter((id) => selection.has(id))
}
