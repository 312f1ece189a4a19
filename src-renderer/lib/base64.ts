/**
 * Base64 of bytes without building one giant argument list (String.fromCharCode(...bytes) overflows
 * the stack past ~100 KB): encode in slices whose length is a multiple of 3, so the pieces join into
 * one valid Base64 string with padding only at the end.
 */
const SLICE = 3 * 0x4000 // 48 KiB: a multiple of 3, and well under any argument-count limit

type WithToBase64 = Uint8Array & { toBase64?: () => string }

export function bytesToBase64(bytes: Uint8Array): string {
  const native = (bytes as WithToBase64).toBase64
  if (typeof native === 'function') return native.call(bytes)
  const parts: string[] = []
  for (let i = 0; i < bytes.length; i += SLICE) {
    const slice = bytes.subarray(i, Math.min(i + SLICE, bytes.length))
    let bin = ''
    // Inner chunks keep fromCharCode's argument count small.
    for (let j = 0; j < slice.length; j += 0x1000) {
      bin += String.fromCharCode.apply(
        null,
        slice.subarray(j, Math.min(j + 0x1000, slice.length)) as unknown as number[],
      )
    }
    parts.push(btoa(bin))
  }
  return parts.join('')
}

/** Reads a File (from a drop or an <input type=file>) as Base64. */
export async function fileToBase64(file: Blob): Promise<string> {
  return bytesToBase64(new Uint8Array(await file.arrayBuffer()))
}
