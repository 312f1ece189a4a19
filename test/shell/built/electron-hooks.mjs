// Node module hooks for booting the built out/main bundle without Electron: the bare specifier
// 'electron' resolves to the recording stand-in (../fake-electron.ts, through electron-stand-in.ts).
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') {
    // Through the rest of the chain, so tsx (registered before) loads the TypeScript stand-in.
    return nextResolve(new URL('./electron-stand-in.ts', import.meta.url).href, context)
  }
  return nextResolve(specifier, context)
}
