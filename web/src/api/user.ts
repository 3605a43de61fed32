// The signed-in user: their details, password, credits and credit usage; a guest's credits.
import type { ApiBody, ApiQuery } from '@/types/api'
import { client, unwrap } from './client'

export function getUserInfo(signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/user/userInfo', { signal }))
}

export function updateUserInfo(body: ApiBody<'/api/v1/user/userInfo', 'patch'>) {
  return unwrap(client.PATCH('/api/v1/user/userInfo', { body }))
}

export function updatePassword(body: ApiBody<'/api/v1/user/updatePassword', 'patch'>) {
  return unwrap(client.PATCH('/api/v1/user/updatePassword', { body }))
}

export function getCreditsAvailable(signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/user/creditsAvailable', { signal }))
}

export function getGuestCredits(signal?: AbortSignal) {
  return unwrap(client.GET('/imageedit/users/getCreditsForGuests', { signal }))
}

/** Credits spent and given back per UTC day, and the ledger entries of the range. */
export function getCreditUsage(query: ApiQuery<'/api/v1/user/creditUsage', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/user/creditUsage', { params: { query }, signal }))
}
