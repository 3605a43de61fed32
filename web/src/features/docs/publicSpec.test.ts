import { describe, expect, it } from 'vitest'
import openapi from '../../../openapi.json'
import { filterPublicSpec, isPublicPath, PUBLIC_PATH_PREFIXES, type OpenApiDocument } from './publicSpec'

const spec = openapi as unknown as OpenApiDocument

describe('isPublicPath', () => {
  it('takes the public routes and their sub-paths only', () => {
    expect(isPublicPath('/api/v1/uploads')).toBe(true)
    expect(isPublicPath('/api/v1/generations/{generation_id}')).toBe(true)
    expect(isPublicPath('/api/v1/api-keys/{key_id}')).toBe(true)
    expect(isPublicPath('/api/v1/credits')).toBe(true)
    expect(isPublicPath('/api/v1/webhooks/{endpoint_id}/deliveries')).toBe(true)
    expect(isPublicPath('/api/v1/payment/webhook/{provider}')).toBe(false)
    expect(isPublicPath('/api/v1/creditsX')).toBe(false)
    expect(isPublicPath('/api/v1/user/creditsAvailable')).toBe(false)
    expect(isPublicPath('/api/v1/admin/generations')).toBe(false)
    expect(isPublicPath('/imageedit/service/bodySwap')).toBe(false)
  })
})

describe('filterPublicSpec', () => {
  const filtered = filterPublicSpec(spec, 'https://shop.example')
  const paths = Object.keys(filtered.paths)

  it('keeps exactly the public operations of the committed document', () => {
    expect(paths.sort()).toEqual([
      '/api/v1/api-keys',
      '/api/v1/api-keys/{key_id}',
      '/api/v1/credits',
      '/api/v1/generations',
      '/api/v1/generations/{generation_id}',
      '/api/v1/provenance',
      '/api/v1/uploads',
      '/api/v1/webhooks',
      '/api/v1/webhooks/{endpoint_id}',
      '/api/v1/webhooks/{endpoint_id}/deliveries',
      '/api/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}/resend',
      '/api/v1/webhooks/{endpoint_id}/enable',
    ])
    for (const path of paths) expect(PUBLIC_PATH_PREFIXES.some((p) => path.startsWith(p))).toBe(true)
    expect(filtered.paths['/api/v1/generations']).toHaveProperty('post')
    expect(filtered.paths['/api/v1/generations']).toHaveProperty('get')
  })

  it('documents the Content Credentials check as open to anyone, without a key', () => {
    const check = filtered.paths['/api/v1/provenance']?.post as { security: unknown[] }
    expect(check.security).toEqual([])
    expect(filtered.components?.schemas).toHaveProperty('ProvenanceCheckView')
    const generations = filtered.paths['/api/v1/generations']?.post as { security: unknown[] }
    expect(generations.security).toEqual([{ apiKey: [] }])
  })

  it('keeps every schema the operations reach, and none of the rest', () => {
    const schemas = filtered.components?.schemas ?? {}
    expect(schemas).toHaveProperty('GenerationBody')
    expect(schemas).toHaveProperty('PublicGeneration')
    expect(schemas).toHaveProperty('ImageView') // reached through PublicGeneration
    expect(schemas).not.toHaveProperty('Body_login_api_v1_auth_login_post')
    const refs = JSON.stringify(filtered.paths).match(/#\/components\/schemas\/[\w.-]+/g) ?? []
    const all = JSON.stringify(filtered).match(/#\/components\/schemas\/[\w.-]+/g) ?? []
    expect(refs.length).toBeGreaterThan(0)
    for (const ref of all) expect(schemas).toHaveProperty([ref.replace('#/components/schemas/', '')])
    expect(Object.keys(schemas).length).toBeLessThan(Object.keys(spec.components?.schemas ?? {}).length)
  })

  it('documents the key as a bearer scheme, not as header parameters, and serves from the origin', () => {
    const upload = filtered.paths['/api/v1/uploads']?.post as { parameters: Array<{ name: string }>; security: unknown }
    expect(upload.parameters.map((p) => p.name.toLowerCase())).not.toContain('authorization')
    expect(upload.parameters.map((p) => p.name.toLowerCase())).not.toContain('x-distributor-id')
    expect(upload.security).toEqual([{ apiKey: [] }])
    const keys = filtered.paths['/api/v1/api-keys']?.post as { security: unknown }
    expect(keys.security).toEqual([{ session: [] }])
    const hooks = filtered.paths['/api/v1/webhooks']?.post as { parameters: Array<{ name: string }>; security: unknown }
    expect(hooks.security).toEqual([{ apiKey: [] }])
    expect(hooks.parameters.map((p) => p.name.toLowerCase())).not.toContain('authorization')
    expect(filtered.components?.schemas).toHaveProperty('WebhookDeliveryView')
    const create = filtered.paths['/api/v1/generations']?.post as { parameters: Array<{ name: string }> }
    expect(create.parameters.map((p) => p.name)).toContain('Idempotency-Key')
    expect(filtered.servers).toEqual([{ url: 'https://shop.example' }])
  })

  it('does not change its input', () => {
    expect(Object.keys(spec.paths)).toContain('/api/v1/auth/login')
    const upload = spec.paths['/api/v1/uploads']?.post as { parameters: Array<{ name: string }> }
    expect(upload.parameters.map((p) => p.name)).toContain('authorization')
  })
})
