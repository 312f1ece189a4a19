// Loaded with `node --expose-gc --require` into a process a test measures: every 50 ms, a full
// garbage collection, then the memory still holding data (V8 heap in use + ArrayBuffers, which
// back every Buffer) on stderr as "MEMPROBE <bytes>". Collected first, so what is measured is what
// the process keeps, not garbage waiting for the collector.
setInterval(() => {
  if (typeof global.gc === 'function') global.gc()
  const m = process.memoryUsage()
  process.stderr.write(`MEMPROBE ${m.heapUsed + m.arrayBuffers}\n`)
}, 50).unref()
