// `npm start` builds the web client first. Where the build tools are not installed (an install
// without devDependencies) an existing build is served as it is, and without one only the API.
import { existsSync } from 'node:fs'
import path from 'node:path'

const root = import.meta.dirname
let vite: typeof import('vite')
try {
  vite = await import('vite')
} catch {
  const built = existsSync(path.join(root, 'dist/index.html'))
  console.warn(built
    ? 'vite is not installed: serving the existing web client build in web/dist'
    : 'vite is not installed and web/dist has no build: only the API is served (npm ci, then npm run build:web)')
  process.exit(0)
}
await vite.build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn' })
