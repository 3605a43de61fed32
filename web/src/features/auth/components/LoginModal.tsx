import { useAtomValue } from 'jotai'
import { lazy, Suspense, useCallback } from 'react'
import { useLocation } from 'react-router'
import { useAuth } from '@/hooks/useAuth'
import { AUTH_SCREEN_PATHS } from '../paths'
import { loginModalVisibleAtom } from '@/stores/auth'

// The forms (react-hook-form, zod schemas, Google sign-in) load when the modal first opens,
// not with every page: most visits never open it.
const LoginDialog = lazy(() => import('./LoginDialog').then((m) => ({ default: m.LoginDialog })))

/**
 * The login modal (spec §2): over any page while the popup flag is raised and
 * no user email is known; it closes once one is, or when the user closes it.
 */
export function LoginModal() {
  const visible = useAtomValue(loginModalVisibleAtom)
  const { setOpen } = useAuth()
  const { pathname } = useLocation()
  const close = useCallback(() => setOpen(false), [setOpen])
  if (!visible || AUTH_SCREEN_PATHS.includes(pathname)) return null
  return (
    <Suspense fallback={null}>
      <LoginDialog onClose={close} />
    </Suspense>
  )
}
