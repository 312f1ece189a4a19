/**
 * Imported first by main.tsx, for its side effect: ES modules run in import order, so this body
 * runs before React and the app are evaluated, and the first calls are already on their way.
 */
import { startEarlyCalls } from './lib/early'
import { loadScreen } from './screens'
import { initialScreen } from './store/ui'

// The first screen's code first (the store starts on the same screen; importing the store here
// would evaluate React first): the web host then serves it ahead of the calls.
void loadScreen(initialScreen()).catch(() => undefined)
startEarlyCalls()
