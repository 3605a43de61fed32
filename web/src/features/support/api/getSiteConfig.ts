// The config request is shared with the upload flow: it lives in lib/siteConfig.
export { getSiteConfig, siteConfigQueryOptions, useSiteConfig } from '@/lib/siteConfig'
