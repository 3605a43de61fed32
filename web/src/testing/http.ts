// Test helpers (not shipped: only *.test.* files and the features' testing modules import this).

/** A JSON answer as the server sends it, for a test's fetch stub. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}
