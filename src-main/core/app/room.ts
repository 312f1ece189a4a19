/**
 * A room of the app service: the handlers of its slice of the contract. The service is the
 * intersection of its rooms, composed by `composeRooms`, which refuses a call handled twice;
 * `Unhandled` names any call of the contract that has no room (app-service.ts checks it is never).
 */
import type { CallName, Calls, ParsedReq } from '../../../contract'

export type CallHandlers = { [K in CallName]: (req: ParsedReq<K>) => Promise<Calls[K]> }

/** The handlers of the calls `K`. */
export type Room<K extends CallName> = Pick<CallHandlers, K>

/** The calls of the contract that no room of `R` handles: `never` when every call has its room. */
export type Unhandled<R> = Exclude<CallName, keyof R>

/** One object with every room's handlers; a call handled by two rooms is a mistake, caught here. */
export function composeRooms<R extends object>(...rooms: object[]): R {
  const out: Record<string, unknown> = {}
  for (const room of rooms) {
    for (const [name, handler] of Object.entries(room)) {
      if (name in out) throw new Error(`the call ${name} is handled by two rooms`)
      out[name] = handler
    }
  }
  return out as R
}
