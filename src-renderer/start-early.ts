/**
 * Imported first by main.tsx, for its side effect: ES modules run in import order, so this body
 * runs before React and the app are evaluated, and the first calls are already on their way.
 */
import { startEarlyCalls } from './lib/early'

startEarlyCalls()
