import { useState } from 'react'

/** A form's values and a setter for one of them (the rest are kept). */
export function useValues<V extends object>(initial: V) {
  const [values, setValues] = useState(initial)
  const set = <K extends keyof V>(k: K, value: V[K]) => setValues((o) => ({ ...o, [k]: value }))
  return [values, set, setValues] as const
}
