/** Readable messages from a zod error: one sentence, or one message per field for forms. */
import type { z } from 'zod'

/** One readable sentence from a zod error: "items.0.quantity: quantity must be greater than 0; …". */
export function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.map(String).join('.')
      return path ? `${path}: ${i.message}` : i.message
    })
    .join('; ')
}

/** Field path → first message, for forms. */
export function issuesByField(error: z.core.$ZodError): Record<string, string> {
  const out: Record<string, string> = {}
  for (const i of error.issues) {
    const path = i.path.map(String).join('.')
    out[path] ??= i.message
  }
  return out
}
