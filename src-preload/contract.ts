// The bridge contract. A later issue grows this into the full list of calls and events (design.md §1);
// main, the preload and the web host are all built from it.
export interface BookdropApi {
  /** App version, from package.json at build time. */
  readonly version: string
}
