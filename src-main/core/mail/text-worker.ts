/**
 * The mail text worker's entry (workers/entries.json "mail-text"): a mail body part (plain text or
 * HTML, already decoded to UTF-8) as plain text, read by postal-mime in a worker thread with the
 * limits of MAIL_TEXT_LIMITS (./text.ts), never on the thread that answers the window.
 */
import PostalMime from 'postal-mime'
import { serve } from '../../../workers/serve'

/** The text of a body part: HTML is turned into text by postal-mime (the same reader as the emulator's). */
async function bodyText(input: { type: 'text/plain' | 'text/html'; text: string }): Promise<string> {
  if (input.type === 'text/plain') return tidy(input.text)
  // postal-mime renders a part of one text type in the other when the message has both types: an
  // empty plain part next to the HTML makes it give the HTML's text (its own html-to-text reader).
  const b = `=_bookdrop_${Math.random().toString(36).slice(2)}`
  const raw =
    `Content-Type: multipart/mixed; boundary="${b}"\r\n\r\n` +
    `--${b}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\r\n` +
    `--${b}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${input.text.replaceAll(`--${b}`, '')}\r\n--${b}--\r\n`
  const mail = await PostalMime.parse(raw)
  return tidy(mail.text ?? '')
}

/** Lines trimmed, runs of blank lines made one, at most 100,000 characters. */
function tidy(s: string): string {
  return s
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .slice(0, 100_000)
}

serve({ bodyText })
