// The renderer's window on schemas/labels.ts (eslint-rules/layers.js: the renderer imports only the
// contract). One re-export per module, so a screen that needs a label does not pull in every schema.
export * from '../schemas/labels'
