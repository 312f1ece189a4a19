/** A problem with one attachment; its message is the reason given to the caller. */
export class AttachmentError extends Error {}
