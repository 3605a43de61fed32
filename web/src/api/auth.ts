// The auth calls. All are made without a session (api/client NO_SESSION_PATHS): no
// Authorization; x-fingerprint-id lets the server move the guest's generations to the
// account, and the refresh cookie comes back with the answer (credentials: 'include').
import type { ApiBody } from '@/types/api'
import { client, unwrap } from './client'

const NO_SESSION = { credentials: 'include' } as const satisfies RequestInit

export function login(body: ApiBody<'/api/v1/auth/login', 'post'>) {
  return unwrap(client.POST('/api/v1/auth/login', { body, ...NO_SESSION }))
}

export function signup(body: ApiBody<'/api/v1/auth/signup', 'post'>) {
  return unwrap(client.POST('/api/v1/auth/signup', { body, ...NO_SESSION }))
}

export function externalLogin(body: ApiBody<'/api/v1/auth/externalLogin', 'post'>) {
  return unwrap(client.POST('/api/v1/auth/externalLogin', { body, ...NO_SESSION }))
}

export function generateSignupOtp(body: ApiBody<'/api/v1/auth/generateSignupOTP', 'post'>) {
  return unwrap(client.POST('/api/v1/auth/generateSignupOTP', { body, ...NO_SESSION }))
}

export function verifySignupOtp(body: ApiBody<'/api/v1/auth/verifySignupOTP', 'post'>) {
  return unwrap(client.POST('/api/v1/auth/verifySignupOTP', { body, ...NO_SESSION }))
}

export function generateResetPasswordOtp(body: ApiBody<'/api/v1/auth/generateResetPasswordOTP', 'post'>) {
  return unwrap(client.POST('/api/v1/auth/generateResetPasswordOTP', { body, ...NO_SESSION }))
}

export function verifyResetPasswordOtp(body: ApiBody<'/api/v1/auth/verifyResetPasswordOTP', 'post'>) {
  return unwrap(client.POST('/api/v1/auth/verifyResetPasswordOTP', { body, ...NO_SESSION }))
}

export function resetPassword(body: ApiBody<'/api/v1/auth/resetPassword', 'post'>) {
  return unwrap(client.POST('/api/v1/auth/resetPassword', { body, ...NO_SESSION }))
}

/** Revokes the session the token belongs to (passed explicitly: the local session is gone). */
export function logout(bearer: string) {
  return unwrap(
    client.POST('/api/v1/auth/logout', { headers: { Authorization: `Bearer ${bearer}` }, ...NO_SESSION }),
  )
}
