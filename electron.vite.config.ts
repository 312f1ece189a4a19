import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'

const root = import.meta.dirname
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { version: string }
const appVersion = { __BOOKDROP_VERSION__: JSON.stringify(pkg.version) }
/** The worker entries (workers/entries.json), built next to main as workers/<name>.js (workers/locate.ts). */
const workerEntries = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(resolve(root, 'workers/entries.json'), 'utf8')) as Record<string, string>).map(
    ([name, source]) => [`workers/${name}`, resolve(root, source)],
  ),
)

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      // package.json is "type": "module", so out/main/index.js is an ES module (Electron >= 28).
      rolldownOptions: { input: { index: resolve(root, 'src-main/electron/main.ts'), ...workerEntries } },
    },
  },
  preload: {
    define: appVersion,
    build: {
      outDir: resolve(root, 'out/preload'),
      rolldownOptions: {
        input: { index: resolve(root, 'src-preload/index.ts') },
        // A sandboxed preload (sandbox: true) cannot be an ES module: emit CommonJS with an explicit
        // .cjs extension so Node-style loaders don't read it as ESM under "type": "module".
        output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // electron-vite leaves the renderer unminified by default; minified, the first chunk is ~110 KB gzipped.
      minify: true,
      rolldownOptions: {
        // The phone's page (issue 25) is an entry of its own: the phone listener serves it and the
        // files it names, never the app's (src-main/core/phone/page.ts).
        input: { index: resolve(root, 'src-renderer/index.html'), phone: resolve(root, 'src-renderer/phone/index.html') },
        // The small components screens share travel as one chunk, not one request each: a screen
        // then costs two requests, which matters while boot calls and the event stream hold most
        // of the browser's six connections to the web host. The frame's own components (navigation,
        // status bar, toasts, the batch announcer and what they use) stay with the entry, so the
        // first paint does not wait for the tables, menus and forms of screens not yet opened; so do
        // their English messages (Nav.messages.json beside Nav.tsx: the pattern stops at the dot).
        output: {
          codeSplitting: {
            groups: [
              {
                name: 'components',
                test: /src-renderer[\\/]components[\\/](?!(Nav|StatusBar|Toasts|BatchAnnouncer|Field)\.)/,
                // Only the components themselves: what they share with the entry stays in it.
                includeDependenciesRecursively: false,
              },
            ],
          },
        },
      },
    },
  },
})
