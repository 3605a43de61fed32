import { createStore } from 'jotai'

/**
 * One explicit jotai store, shared by the React tree (via <Provider>) and the
 * code that runs outside React (route loaders, the upload orchestration, the
 * session life cycle).
 */
export const appStore = createStore()
