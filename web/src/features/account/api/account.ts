import { api } from '@/lib/api'

export interface UserInfo {
  userId: string
  userEmail: string
  userName: string
  createdAt: string
}

export function getUserInfo(signal?: AbortSignal): Promise<UserInfo> {
  return api.get<UserInfo>('/api/v1/user/userInfo', undefined, signal)
}

export function updateUserInfo(body: { name: string }): Promise<UserInfo> {
  return api.patch<UserInfo>('/api/v1/user/userInfo', body)
}

export function updatePassword(body: { currentPassword: string; newPassword: string }): Promise<{ ok: boolean }> {
  return api.patch<{ ok: boolean }>('/api/v1/user/updatePassword', body)
}
