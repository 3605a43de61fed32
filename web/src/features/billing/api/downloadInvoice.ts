import { useMutation } from '@tanstack/react-query'
import { sendWithSession } from '@/api/client'
import { saveBlob } from '@/lib/download'
import { attachmentName } from '@/lib/zipDownload'

/**
 * GET /api/v1/payment/invoice/{orderId} (a PDF) with the session (api/payment), so the session's token and its
 * renewal apply, then saved as a file named as the server says.
 */
export async function downloadInvoice(invoiceUrl: string, orderId: string): Promise<string> {
  const res = await sendWithSession(invoiceUrl, { headers: { Accept: 'application/pdf' } })
  const blob = await res.blob()
  const name = attachmentName(res.headers, `invoice-${orderId}.pdf`)
  saveBlob(blob.type ? blob : new Blob([blob], { type: 'application/pdf' }), name)
  return name
}

export function useDownloadInvoice() {
  return useMutation({
    mutationFn: ({ invoiceUrl, orderId }: { invoiceUrl: string; orderId: string }) => downloadInvoice(invoiceUrl, orderId),
  })
}
