import { useAtomValue, useSetAtom } from 'jotai'
import { useEffect } from 'react'
import { Outlet, useNavigate } from 'react-router'
import { Toaster } from '@/components/ui/Toaster'
import { LoginModal } from '@/features/auth/components/LoginModal'
import { logout } from '@/features/auth/session'
import { userAtom } from '@/features/auth/stores/auth'
import { refreshCreditsAtom } from '@/features/credits/stores/credits'
import { UNAUTHORISED_MESSAGE, setSessionExpiredHandler } from '@/lib/api'
import { toast } from '@/lib/toast'

/**
 * Wraps every route, the auth screens included: the toasts, the login modal,
 * the forced logout on an expired session and the credit refetch on login.
 */
export function RootLayout() {
  const navigate = useNavigate()
  const userEmail = useAtomValue(userAtom)?.userEmail
  const refreshCredits = useSetAtom(refreshCreditsAtom)

  // Any 401 that the refresh cookie could not fix (spec §8).
  useEffect(() => {
    setSessionExpiredHandler(() => {
      toast.error(UNAUTHORISED_MESSAGE)
      logout(navigate)
    })
    return () => setSessionExpiredHandler(null)
  }, [navigate])

  // When a user email is present, the credit balance is refetched (spec §4).
  useEffect(() => {
    if (userEmail) void refreshCredits()
  }, [userEmail, refreshCredits])

  return (
    <>
      <Outlet />
      <LoginModal />
      <Toaster />
    </>
  )
}
