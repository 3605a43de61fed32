import { atom, useSetAtom } from 'jotai'
import { useCallback } from 'react'

/** The Book An Appointment dialog (the sidebar's button) is open. */
export const enterpriseDialogOpenAtom = atom(false)

/** Opens the Book An Appointment dialog (for the sidebar's button). */
export function useOpenEnterpriseDialog(): () => void {
  const setOpen = useSetAtom(enterpriseDialogOpenAtom)
  return useCallback(() => setOpen(true), [setOpen])
}
