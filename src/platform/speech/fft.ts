// The discrete Fourier transform both speech feature extractors use (voice turns, speaker embeddings).
// No Node imports: the web client runs the embedding engine in the browser.

/** In-place radix-2 FFT of (re, im), length a power of two. */
export function fft(re: Float64Array, im: Float64Array) {
  const n = re.length
  for (let index = 1, swap = 0; index < n; index += 1) {
    let bit = n >> 1
    for (; swap & bit; bit >>= 1) swap ^= bit
    swap ^= bit
    if (index < swap) {
      ;[re[index], re[swap]] = [re[swap]!, re[index]!]
      ;[im[index], im[swap]] = [im[swap]!, im[index]!]
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = (-2 * Math.PI) / size
    const stepRe = Math.cos(angle)
    const stepIm = Math.sin(angle)
    for (let start = 0; start < n; start += size) {
      let wRe = 1
      let wIm = 0
      for (let offset = 0; offset < size / 2; offset += 1) {
        const a = start + offset
        const b = a + size / 2
        const tRe = re[b]! * wRe - im[b]! * wIm
        const tIm = re[b]! * wIm + im[b]! * wRe
        re[b] = re[a]! - tRe
        im[b] = im[a]! - tIm
        re[a] = re[a]! + tRe
        im[a] = im[a]! + tIm
        const nextRe = wRe * stepRe - wIm * stepIm
        wIm = wRe * stepIm + wIm * stepRe
        wRe = nextRe
      }
    }
  }
}
