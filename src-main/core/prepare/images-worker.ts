/**
 * The images worker's entry (workers/entries.json "images"): photo preparation (./images.ts) in a
 * worker thread, with the limits of IMAGE_LIMITS (./preparer.ts), away from the thread that answers
 * the window, the web host and the phone.
 */
import { serve } from '../../../workers/serve'
import { type DocumentPage, type PrepareInput, assemblePdf, prepareImage } from './images'

serve({
  prepareImage: (input: PrepareInput) => prepareImage(input),
  assemblePdf: (input: { pages: DocumentPage[] }) => assemblePdf(input.pages),
})
