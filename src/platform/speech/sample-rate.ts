// The one sample rate every engine takes (16 kHz mono PCM). Its own module, free of Node imports,
// so the built-in speaker embedding (embedding/builtin.ts) also runs in the browser (voice enrollment).
export const SAMPLE_RATE = 16_000
