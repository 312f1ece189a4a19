/**
 * A saved config (a watched folder, a mail account, a mail rule) from what a person entered: the
 * input checked by its schema (zod or zod/mini), then built with its id (a new one unless it is
 * kept) and the time it was added.
 */
import { randomUUID } from 'node:crypto'

/** A zod schema as seen here: its parse, and its input and output types. */
interface Schema<I, O> {
  parse(input: unknown): O
  _zod: { input: I; output: O }
}

export function configNormalizer<I, O, C>(
  schema: Schema<I, O>,
  build: (parsed: O, id: string, addedAt: number) => C,
): (input: I, id?: string, addedAt?: number) => C {
  return (input, id = randomUUID(), addedAt = Date.now()) => build(schema.parse(input), id, addedAt)
}
