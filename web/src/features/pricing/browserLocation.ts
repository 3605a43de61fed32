/** Where the browser goes to pay (the provider's hosted checkout page): a seam for tests. */
export const browserLocation = {
  assign: (url: string): void => window.location.assign(url),
}
