import { GOOGLE_USERINFO_URL } from '@/config'
import { ApiError, api, getExternalJson, requestAccessToken } from '@/lib/api'

// Calls made without a session send no Authorization; x-fingerprint-id (added
// by lib/api) lets the server move the guest's generations to the account.

export interface AuthUser {
  userId: string
  userEmail: string
  userName: string
}

export interface AuthResult {
  token: string
  user: AuthUser
}

const noSession = { auth: false, credentials: 'include' as const }

export function login(body: { email: string; password: string; rememberMe: boolean }): Promise<AuthResult> {
  return api.post<AuthResult>('/api/v1/auth/login', body, noSession)
}

export function externalLogin(body: {
  email: string
  name: string
  distributorId: string
  accessToken: string
  rememberMe: boolean
}): Promise<AuthResult> {
  return api.post<AuthResult>('/api/v1/auth/externalLogin', body, noSession)
}

export function generateSignupOtp(email: string): Promise<{ sent: boolean }> {
  return api.post('/api/v1/auth/generateSignupOTP', { email }, noSession)
}

export function verifySignupOtp(email: string, otp: string): Promise<{ verified: boolean }> {
  return api.post('/api/v1/auth/verifySignupOTP', { email, otp }, noSession)
}

export function signup(body: {
  email: string
  otp: string
  name: string
  password: string
  distributorId: string
  rememberMe: boolean
}): Promise<AuthResult> {
  return api.post<AuthResult>('/api/v1/auth/signup', body, noSession)
}

export function generateResetPasswordOtp(email: string): Promise<{ sent: boolean }> {
  return api.post('/api/v1/auth/generateResetPasswordOTP', { email }, noSession)
}

export function verifyResetPasswordOtp(email: string, otp: string): Promise<{ verified: boolean }> {
  return api.post('/api/v1/auth/verifyResetPasswordOTP', { email, otp }, noSession)
}

export function resetPassword(body: { email: string; otp: string; password: string }): Promise<{ ok: boolean }> {
  return api.post('/api/v1/auth/resetPassword', body, noSession)
}

/** Revokes the session server-side and clears the refresh cookie. The token is passed explicitly: the
 *  local session is already gone by then, and a 401 here must not start another logout. */
export async function logoutOnServer(token: string): Promise<void> {
  const call = (bearer: string) =>
    api.post('/api/v1/auth/logout', {}, { ...noSession, headers: { Authorization: `Bearer ${bearer}` } })
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

export interface GoogleUserInfo {
  email?: string
  name?: string
}

export function getGoogleUserInfo(accessToken: string): Promise<GoogleUserInfo> {
  return getExternalJson<GoogleUserInfo>(GOOGLE_USERINFO_URL, accessToken)
}
