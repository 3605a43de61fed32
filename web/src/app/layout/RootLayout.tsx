import { useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { Outlet, useLocation, useNavigate } from 'react-router'
import { Toaster } from '@/components/ui/Toaster'
import { LoginModal } from '@/features/auth/components/LoginModal'
import { logout } from '@/features/auth/session'
import { UNAUTHORISED_MESSAGE } from '@/lib/api'
import { onSessionExpired } from '@/lib/queryClient'
import { toast } from '@/lib/toast'
import { useAuth } from '@/hooks/useAuth'
import { userDetailAtom } from '@/stores/userDetail'

/**
 * Wraps every route, the auth screens included: the toasts, the login modal and
 * the forced logout when a query or mutation finds the session over (spec §8).
 * The credit balance follows the user by itself (its query is keyed by the email).
 * The user-detail context follows the route and the login state.
 */
export function RootLayout() {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const { isAuthenticated } = useAuth()
  const putUserDetail = useSetAtom(userDetailAtom)

  useEffect(() => {
    putUserDetail({ type: 'PUTDATA', payload: { userCurrentStep: pathname, userIsLoggedIn: isAuthenticated } })
  }, [pathname, isAuthenticated, putUserDetail])

  useEffect(() => {
    onSessionExpired(() => {
      toast.error(UNAUTHORISED_MESSAGE)
      logout(navigate)
    })
    return () => onSessionExpired(null)
  }, [navigate])

  return (
    <>
      <Outlet />
      <LoginModal />
      <Toaster />
    </>
  )
}
