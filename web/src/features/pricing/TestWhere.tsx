// Test helper (only *.test.tsx use it through ./testing).
import { useLocation } from 'react-router'

/** Shows where the router is, for assertions on navigation. */
export function Where() {
  const { pathname, search } = useLocation()
  return <output data-testid="where">{pathname + search}</output>
}
