/**
 * A sentence the main process wants a person to read (an error, a reason stored with a history row,
 * a notification), sent as a catalogue id with parameters and worded by the reader's language
 * (issue 34). `text` is its English wording: for logs, headless output, and readers that do not know
 * the code. Parameters are plain values (names, numbers, epoch-ms dates); never a secret.
 */
export interface Coded {
  code: string
  params?: Readonly<Record<string, string | number | boolean | null>>
  text: string
}
