/**
 * Imported first by main.tsx, for its side effect: ES modules run in import order, so this body
 * runs before React and the app are evaluated. It asks for the first screen's code, boot's four
 * calls and, when the app opens on the upload history (its address, or where it was left), that
 * history's first page for the profile active last time; when it opens on Review, the list's
 * first page (review.list answers for the active profile: no profile id needed). See lib/early.ts.
 */
import { lastActiveProfile, startEarly } from './lib/early'
import { loadScreen } from './screens'
import { emptyHistoryFilter, historyPageRequest } from './store/history'
import { FIRST_REVIEW_FILTER, reviewPageRequest } from './store/review'
import { initialScreen } from './store/ui'

const screen = initialScreen()
// The first screen's code first (the store starts on the same screen; importing the store here
// would evaluate React first): the web host then serves it ahead of the calls.
void loadScreen(screen).catch(() => undefined)
// Review's first page first: it is the slowest of these to answer (counts over every record).
if (screen === 'review') startEarly('review.list', reviewPageRequest(FIRST_REVIEW_FILTER, 0))
startEarly('getAppInfo', {})
startEarly('listProfiles', {})
startEarly('getSession', {})
startEarly('getSettings', {})
const profileId = lastActiveProfile()
if (screen === 'history' && profileId) {
  startEarly('history', historyPageRequest(emptyHistoryFilter(), profileId, 0))
}
