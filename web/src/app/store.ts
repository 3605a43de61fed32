import { createStore } from 'jotai'

/**
 * One explicit jotai store, shared by the React tree (via <Provider>) and the
 * route loaders, which run outside React.
 */
export const appStore = createStore()
