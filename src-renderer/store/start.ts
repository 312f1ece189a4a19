import { useApp } from './index'
import { startEvents } from './events'

/** Subscribes to the bridge's events (once) and loads the first state. */
export async function startApp(): Promise<void> {
  startEvents(useApp.getState)
  await useApp.getState().boot()
}
