/**
 * Toasts, through sonner, usable from anywhere (components, stores, the query
 * client's error handling). <Toaster /> renders them. The message is the toast's
 * id, so the same message raised by several calls at once shows once.
 *
 * sonner (34 KB, and the styles it writes into the page when it loads) is fetched on the
 * first toast or when <Toaster /> is placed, not with the app's first script: no page needs
 * it to paint (issue 39). Calls made before it is in reach it in order once it is.
 */
type Sonner = (typeof import('sonner'))['toast']

let sonner: Sonner | undefined
let loading: Promise<Sonner> | undefined

function withSonner(call: (toaster: Sonner) => void): void {
  if (sonner) {
    call(sonner)
    return
  }
  loading ??= import('sonner').then((module) => (sonner = module.toast))
  loading.then(call, () => {
    loading = undefined // not reachable now (offline): the next toast tries again
  })
}

export type ToastTone = 'info' | 'success' | 'error'

const DURATION_MS: Record<ToastTone, number> = { info: 5000, success: 5000, error: 7000 }

// The error toasts on screen (by id), so a later success can take them away.
const shownErrors = new Set<string>()
// Those of them that complained about what was typed ("Please enter all the value"): any later
// error replaces them, as the form was sent again and they no longer describe it.
const shownInvalid = new Set<string>()

function forget(id: string): void {
  shownErrors.delete(id)
  shownInvalid.delete(id)
}

function dismissInvalid(except: string): void {
  for (const id of shownInvalid) {
    if (id === except) continue
    withSonner((toaster) => toaster.dismiss(id))
    forget(id)
  }
}

export function toast(message: string, tone: ToastTone = 'info'): void {
  const id = `${tone}:${message}`
  if (tone === 'error') {
    dismissInvalid(id)
    shownErrors.add(id)
  }
  withSonner((toaster) => {
    const show = tone === 'success' ? toaster.success : tone === 'error' ? toaster.error : toaster.info
    show(message, {
      id,
      duration: DURATION_MS[tone],
      testId: 'toast',
      onAutoClose: () => forget(id),
      onDismiss: () => forget(id),
    })
  })
}

toast.success = (message: string) => toast(message, 'success')
toast.error = (message: string) => toast(message, 'error')

/** An error about what was typed into a form: the next error, of any kind, replaces it. */
toast.invalid = (message: string): void => {
  toast(message, 'error')
  shownInvalid.add(`error:${message}`)
}

/**
 * Takes away the error toasts still on screen: once the thing they complained about has
 * worked (the right code after a wrong one), a red "The code is wrong" must not linger.
 */
toast.clearErrors = (): void => {
  for (const id of shownErrors) withSonner((toaster) => toaster.dismiss(id))
  shownErrors.clear()
  shownInvalid.clear()
}
