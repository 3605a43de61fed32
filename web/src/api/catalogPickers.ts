// The published catalog the pickers show: digital models and their categories, and the seeds
// (backgrounds and models of the image edit API).
import type { ApiQuery } from '@/types/api'
import { client, unwrap } from './client'

export function getModels(query: ApiQuery<'/api/v1/model', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/model', { params: { query }, signal }))
}

/** The gender, skin tone and body type values the published models have. */
export function getModelFilters(signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/model/filters', { signal }))
}

export function getModelCategories(signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/model/categories', { signal }))
}

export function getSeeds(query: ApiQuery<'/imageedit/seed', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/imageedit/seed', { params: { query }, signal }))
}

/**
 * The digital models with, given the caller's uploads (ids or keys), whether a model swap of
 * those photos can use each one (`compatible`, `reason`, `incompatibleUploads`).
 */
export function getModelFits(query: ApiQuery<'/api/v1/models', 'get'>, signal?: AbortSignal) {
  return unwrap(client.GET('/api/v1/models', { params: { query }, signal }))
}
