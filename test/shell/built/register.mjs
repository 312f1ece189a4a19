// `node --import tsx --import ./test/shell/built/register.mjs …`: installs ./electron-hooks.mjs.
import { register } from 'node:module'

register('./electron-hooks.mjs', import.meta.url)
