// Vite builds web/ into web/dist; the server (src/modules/webclient) serves it. Each emitted
// text file also gets Brotli and gzip siblings, which the server sends as they are.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'confer-precompress',
    apply: 'build',
    configResolved(config) { outDir = path.resolve(config.root, config.build.outDir) },
    writeBundle(_options, bundle) {
      const files = [...Object.keys(bundle), 'index.html', 'favicon.svg']
      for (const name of new Set(files)) {
        if (!/\.(js|css|html|svg|json|webmanifest)$/.test(name)) continue
        const file = path.join(outDir, name)
        let data: Buffer
        try { data = readFileSync(file) } catch { continue }
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }))
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }))
      }
    },
  }
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
})
