/** proxy-from-env ships no types: its one function, as its README documents it. */
declare module 'proxy-from-env' {
  /** The proxy URL for `url` from HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY, or '' for none. */
  export function getProxyForUrl(url: string | URL): string
}
