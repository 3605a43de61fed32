/**
 * A tiny toast queue usable from anywhere (components, stores, lib/api
 * handlers). <Toaster /> renders it. The same message shown twice in a row
 * within a moment is not repeated (e.g. several calls failing at once).
 */
import { useSyncExternalStore } from 'react'

export type ToastTone = 'info' | 'success' | 'error'

export interface Toast {
  id: number
  message: string
  tone: ToastTone
}

const DURATION_MS: Record<ToastTone, number> = { info: 5000, success: 5000, error: 7000 }
const DEDUPE_MS = 1500
const MAX_TOASTS = 4

let toasts: readonly Toast[] = []
let nextId = 1
const listeners = new Set<() => void>()
const timers = new Map<number, ReturnType<typeof setTimeout>>()
let last: { message: string; at: number } | null = null

function emit(next: readonly Toast[]): void {
  toasts = next
  for (const l of listeners) l()
}

export function dismissToast(id: number): void {
  const timer = timers.get(id)
  if (timer) clearTimeout(timer)
  timers.delete(id)
  if (toasts.some((t) => t.id === id)) emit(toasts.filter((t) => t.id !== id))
}

export function toast(message: string, tone: ToastTone = 'info'): void {
  const now = Date.now()
  if (last && last.message === message && now - last.at < DEDUPE_MS) return
  last = { message, at: now }
  const id = nextId++
  const kept = toasts.slice(-(MAX_TOASTS - 1))
  for (const dropped of toasts.slice(0, toasts.length - kept.length)) dismissToast(dropped.id)
  emit([...kept, { id, message, tone }])
  timers.set(
    id,
    setTimeout(() => dismissToast(id), DURATION_MS[tone]),
  )
}

toast.success = (message: string) => toast(message, 'success')
toast.error = (message: string) => toast(message, 'error')

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, () => toasts, () => toasts)
}
