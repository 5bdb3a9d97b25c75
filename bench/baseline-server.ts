// The baseline: a bare node:http server answering a JSON body of about the size Confer returns, or
// with BASELINE_BODY_FILE the bytes of that file (already encoded: the fastest a server can send them).
import { readFileSync } from 'node:fs'
import http from 'node:http'

const body = process.env.BASELINE_BODY_FILE ? readFileSync(process.env.BASELINE_BODY_FILE) : JSON.stringify({
  account: { id: 'acc_01J0000000000000000000000', email: 'bench@example.com', name: 'Bench', emailVerified: true, createdAt: new Date().toISOString() },
  workspace: { id: 'wsp_01J0000000000000000000000', name: "Bench's workspace", createdAt: new Date().toISOString() },
  membership: { workspaceId: 'wsp_01J0000000000000000000000', accountId: 'acc_01J0000000000000000000000', accessRole: 'owner', contentPermission: 'edit', joinedAt: new Date().toISOString() },
  workspaces: [{ id: 'wsp_01J0000000000000000000000', name: "Bench's workspace", accessRole: 'owner' }],
})

const server = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  response.end(body)
})
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
