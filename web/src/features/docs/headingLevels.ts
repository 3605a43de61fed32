/**
 * Redoc's headings, put in order for assistive technology. Redoc renders each operation as an
 * <h2> followed by <h5>s ("Authorizations:", "Response Schema:", "path Parameters") and <h3>s,
 * and starts with an <h1> of its own inside our page's "Reference" section: axe counted 31
 * heading-order violations (issue 39 item 6), and a screen reader's heading list read h2 -> h5.
 * Redoc offers no option for its heading levels, so this sets aria-level, which is what the
 * accessibility tree (and axe) reads; the tags and their look stay Redoc's.
 */

const HEADINGS = 'h1, h2, h3, h4, h5, h6'

/**
 * Re-levels the headings in `container` as the outline their tags describe, nested under the
 * page's heading the reference sits in (`parentLevel`): a heading is one level below the
 * nearest heading before it with a smaller tag (Redoc's <h5>s and <h3>s both under their
 * operation's <h2>, its <h1> directly under `parentLevel`). Never deeper than 6. Idempotent.
 */
export function orderHeadings(container: Element, parentLevel: number): void {
  const open: Array<{ tag: number; level: number }> = []
  for (const heading of container.querySelectorAll<HTMLElement>(HEADINGS)) {
    const tag = Number(heading.tagName.slice(1))
    while (open.length && open[open.length - 1]!.tag >= tag) open.pop()
    const level = Math.min(6, (open[open.length - 1]?.level ?? parentLevel) + 1)
    open.push({ tag, level })
    if (level === tag) heading.removeAttribute('aria-level')
    else if (heading.getAttribute('aria-level') !== String(level)) heading.setAttribute('aria-level', String(level))
  }
}

/**
 * Keeps `container`'s headings in order while Redoc renders into it (it renders after loading
 * the document, and again as sections are expanded). Returns the function that stops watching.
 */
export function keepHeadingsOrdered(container: Element, parentLevel: number): () => void {
  let frame = 0
  const apply = () => {
    frame = 0
    orderHeadings(container, parentLevel)
  }
  apply()
  // Only added and removed nodes: the attributes set here do not wake the observer again.
  const observer = new MutationObserver(() => {
    if (!frame) frame = requestAnimationFrame(apply)
  })
  observer.observe(container, { childList: true, subtree: true })
  return () => {
    observer.disconnect()
    if (frame) cancelAnimationFrame(frame)
  }
}
