import { useEffect, useRef, type RefObject } from 'react'

/**
 * Moves focus to `targetRef` (the page's <main>) and scrolls to the top when `pathname` changes,
 * so keyboard and screen-reader users land on the new page rather than on the link that led
 * there. Not on the first load: there the browser's own start (the skip link, then the
 * navigation) must come first for the first Tab.
 */
export function useFocusOnRouteChange(targetRef: RefObject<HTMLElement | null>, pathname: string): void {
  // The path last seen, not a "first run" flag: StrictMode runs effects twice on mount, and the
  // second run must not count as a navigation.
  const seen = useRef(pathname)
  useEffect(() => {
    if (seen.current === pathname) return
    seen.current = pathname
    targetRef.current?.focus({ preventScroll: true })
    window.scrollTo(0, 0)
  }, [pathname, targetRef])
}
