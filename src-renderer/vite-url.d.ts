/** Vite: a file's URL in the build (pdf.js's worker, served from the app's own origin). */
declare module '*?url' {
  const url: string
  export default url
}
