/** The OpenAPI document cut down to what shops' programs call: the public API's operations. */

// What `/docs/api` documents (api/routers/public.py, api/routers/api_keys.py,
// api/routers/webhooks.py and api/routers/provenance.py).
export const PUBLIC_PATH_PREFIXES = [
  '/api/v1/uploads',
  '/api/v1/generations',
  '/api/v1/credits',
  '/api/v1/api-keys',
  '/api/v1/webhooks',
  '/api/v1/provenance',
] as const

// Routes anyone may call, without a key: checking an image's Content Credentials.
const OPEN_PATHS = new Set(['/api/v1/provenance'])

// Headers the web app sends that a program never needs: the key goes in the security scheme.
const HIDDEN_HEADERS = new Set(['authorization', 'x-distributor-id'])

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

export interface OpenApiDocument {
  openapi: string
  info: JsonObject
  paths: Record<string, JsonObject>
  components?: { schemas?: Record<string, Json>; [key: string]: Json | undefined }
  [key: string]: unknown
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `/api/v1/generations/{id}` is public, `/api/v1/generationsX` and `/api/v1/user/...` are not. */
export function isPublicPath(path: string): boolean {
  return PUBLIC_PATH_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
}

function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectRefs(item, into)
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') into.add(item)
      else collectRefs(item, into)
    }
  }
}

// Keys are managed by a signed-in user (User Setting → API keys); an API key is refused there.
function schemeFor(path: string): string | null {
  if (OPEN_PATHS.has(path)) return null
  return path === '/api/v1/api-keys' || path.startsWith('/api/v1/api-keys/') ? 'session' : 'apiKey'
}

function withoutHiddenHeaders(operation: Json, scheme: string | null): Json {
  if (!isObject(operation)) return operation
  const security = scheme ? [{ [scheme]: [] }] : []
  if (!Array.isArray(operation.parameters)) return { ...operation, security }
  const parameters = operation.parameters.filter(
    (p) => !(isObject(p) && p.in === 'header' && typeof p.name === 'string' && HIDDEN_HEADERS.has(p.name.toLowerCase())),
  )
  return { ...operation, parameters, security }
}

/**
 * The public operations only, with only the schemas they reach, the `Authorization: Bearer` key
 * as a security scheme (not a header parameter on every operation) and `servers` set to `origin`.
 * Pure: the input is not changed.
 */
export function filterPublicSpec(spec: OpenApiDocument, origin?: string): OpenApiDocument {
  const paths: Record<string, JsonObject> = {}
  for (const [path, item] of Object.entries(spec.paths)) {
    if (!isPublicPath(path)) continue
    paths[path] = Object.fromEntries(Object.entries(item).map(([method, op]) => [method, withoutHiddenHeaders(op, schemeFor(path))]))
  }

  // Schemas reached from the kept operations, following refs through schemas transitively.
  const allSchemas = spec.components?.schemas ?? {}
  const reached = new Set<string>()
  const pending = new Set<string>()
  collectRefs(paths, pending)
  while (pending.size > 0) {
    const [ref] = pending
    pending.delete(ref as string)
    const name = (ref as string).replace('#/components/schemas/', '')
    if (reached.has(name) || !(name in allSchemas)) continue
    reached.add(name)
    collectRefs(allSchemas[name], pending)
  }
  const schemas: Record<string, Json> = {}
  for (const name of Object.keys(allSchemas).sort()) {
    if (reached.has(name)) schemas[name] = allSchemas[name] as Json
  }

  return {
    ...spec,
    info: {
      ...spec.info,
      title: 'MetaModel public API',
      description:
        'Uploads, generations, credits and webhooks for your own programs, called with an API key ' +
        '(`Authorization: Bearer mm_live_...`, or `mm_test_...` for test mode). ' +
        'Answers wrap their payload in `data`; errors are `{"message": "..."}`.',
    },
    ...(origin ? { servers: [{ url: origin }] } : {}),
    paths,
    components: {
      ...spec.components,
      schemas,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from User Setting → API keys.' },
        session: {
          type: 'http',
          scheme: 'bearer',
          description: 'A signed-in session (the web app). API keys are refused on these routes.',
        },
      },
    },
  }
}
