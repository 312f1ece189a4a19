// @vitest-environment jsdom
/**
 * A row's note (issue 21: "Sent although it looked unfinished…") is shown where its reason would be,
 * in the capture list and the history, so a person sees why a file was sent as it was.
 */
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { upload } from './fake-bridge'

const { LiveUploadRow, uploadReason } = await import('../../src-renderer/components/UploadRow')

const NOTE = 'Sent although it looked unfinished: the %%EOF end marker was missing after 60 s without a change.'

describe("an upload's note", () => {
  it('is shown on a completed row of the capture list', () => {
    render(
      <ul>
        <LiveUploadRow u={upload({ status: 'completed', note: NOTE })} progress={undefined} />
      </ul>,
    )
    expect(screen.getByText(NOTE)).toBeTruthy()
  })

  it("is the history's reason when nothing else is to be said, and never hides an error", () => {
    expect(uploadReason(upload({ status: 'processing', note: NOTE }))).toBe(NOTE)
    expect(uploadReason(upload({ status: 'failed', note: NOTE, lastError: 'Refused by the server.' }))).toBe(
      'Refused by the server.',
    )
    expect(uploadReason(upload({ status: 'completed', note: null }))).toBeNull()
  })
})
