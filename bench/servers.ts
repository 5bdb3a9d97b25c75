// Starting and stopping the processes a benchmark measures.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'

export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  server.close()
  await once(server, 'close')
  return port
}

export type Running = { url: string; child: ChildProcess; stop(): Promise<void> }

export async function startProcess(script: string, env: Record<string, string>, readyPath: string): Promise<Running> {
  const port = await freePort()
  // BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the servers a run measures.
  const flags = process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []
  const child = spawn(process.execPath, [...flags, script, ...(script.endsWith('main.ts') ? ['serve'] : [])], {
    // `$PORT` in a value stands for the port chosen here (PUBLIC_URL must name it).
    env: { ...process.env, ...Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value.replaceAll('$PORT', String(port))])), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  // Up to 60 s: on a busy machine a fresh PostgreSQL schema takes a while to migrate.
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`)
    try {
      if ((await fetch(url + readyPath)).ok) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await once(child, 'exit')
    },
  }
}
