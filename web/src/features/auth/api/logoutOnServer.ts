import { client, requestAccessToken, unwrap } from '@/api/client'
import { ApiError } from '@/lib/api'

/** Sent without a session (api/client NO_SESSION_PATHS); the refresh cookie comes back with the answer. */
const NO_SESSION = { credentials: 'include' } as const satisfies RequestInit

/**
 * Revokes the session server-side and clears the refresh cookie. The token is passed
 * explicitly: the local session is already gone by then, and a 401 here must not start
 * another logout (so this is not a mutation of the query client, which logout clears).
 */
export async function logoutOnServer(token: string): Promise<void> {
  const call = (bearer: string) =>
    unwrap(client.POST('/api/v1/auth/logout', { headers: { Authorization: `Bearer ${bearer}` }, ...NO_SESSION }))
  try {
    await call(token)
  } catch (err) {
    // An expired access token cannot end the session: renew it with the refresh
    // cookie once so the server still revokes the session and clears the cookie.
    if (!(err instanceof ApiError) || err.status !== 401) throw err
    const fresh = await requestAccessToken()
    if (fresh) await call(fresh)
  }
}
