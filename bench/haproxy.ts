// The cluster bench's load balancer: Debian's haproxy, round-robin over the nodes, HTTP keep-alive
// to them and WebSocket upgrades tunnelled. A C proxy, so the balancer costs the 2 shared cores
// far less than a Node proxy would. Bench-only: installed here when missing (never by CI).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const HAPROXY = process.env.BENCH_HAPROXY ?? 'haproxy'

export function ensureHaproxy() {
  if (!spawnSync(HAPROXY, ['-v'], { stdio: 'ignore' }).error) return
  console.log('cluster bench: haproxy is missing; installing Debian\'s haproxy (apt-get install haproxy), used by this benchmark only')
  const install = spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy'], { stdio: 'inherit' })
  if (install.status !== 0 || spawnSync(HAPROXY, ['-v'], { stdio: 'ignore' }).error) {
    throw new Error('the cluster bench needs haproxy: install it (apt-get install haproxy) or set BENCH_HAPROXY to its path')
  }
}

export type Balancer = { pid: number | undefined; stop(): Promise<void> }

/** haproxy on 127.0.0.1:port in front of the node ports, in the foreground as a child process. */
export async function startHaproxy(port: number, nodePorts: number[]): Promise<Balancer> {
  const config = [
    'global', '  maxconn 8000', '  nbthread 1',
    'defaults', '  mode http', '  timeout connect 5s', '  timeout client 120s', '  timeout server 120s', '  timeout tunnel 1h',
    'frontend confer', `  bind 127.0.0.1:${port}`, '  default_backend nodes',
    'backend nodes', '  balance roundrobin', '  http-reuse always',
    ...nodePorts.map((nodePort, index) => `  server node${index + 1} 127.0.0.1:${nodePort} maxconn 1000`),
  ].join('\n')
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'confer-haproxy-')), 'haproxy.cfg')
  writeFileSync(file, `${config}\n`)
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] })
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}`)
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await once(child, 'exit')
    },
  }
}
