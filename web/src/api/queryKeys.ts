/**
 * Query keys that more than one feature uses: the output page (create) caches a generation
 * under this key and My Images (library) drops or refreshes that entry after a delete, so both
 * import it from here (features do not import each other).
 */
export function generationQueryKey(generationId: string) {
  return ['generation', generationId] as const
}
