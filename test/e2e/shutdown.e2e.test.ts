// Graceful shutdown of the real server process: SIGTERM stops new connections at once, lets a
// request already in flight finish (and commit), then the process exits with code 0.
import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http'
import { connect } from 'node:net'
import { crc32, deflateSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/platform/db/index.ts'
import { databaseKinds } from '../databases.ts'
import { signInOverHttp, startMailCatcher, startServer, type MailCatcher, type RunningServer } from './server.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.each(databaseKinds)('graceful shutdown of the real server [%s]', (kind) => {
  let mail: MailCatcher
  let server: RunningServer | undefined

  beforeAll(async () => {
    mail = await startMailCatcher()
  })
  afterEach(async () => {
    await server?.stop()
    server = undefined
  })
  afterAll(async () => {
    await mail?.close()
  })

  it('finishes an upload in flight at SIGTERM, refuses new connections, and exits with 0', async () => {
    server = await startServer(kind, { SMTP_URL: mail.url })
    const cookie = await signInOverHttp(server, mail, `shutdown-${kind}-${Date.now()}@example.com`)
    const png = onePixelPng()
    const half = Math.floor(png.length / 2)

    const upload = request(`${server.baseUrl}/v1/account/avatar`, {
      method: 'PUT',
      agent: false,
      headers: { 'content-type': 'image/png', 'content-length': png.length, cookie },
    })
    const answered = responseOf(upload)
    upload.write(png.subarray(0, half))
    await sleep(300)

    const stoppedAt = Date.now()
    server.process.kill('SIGTERM')
    expect(await connectionRefusedWithin(server.port, 5000)).toBe(true)
    expect(server.process.exitCode).toBeNull()

    upload.end(png.subarray(half))
    const response = await answered
    expect(response.status).toBe(200)
    const body = JSON.parse(response.body)
    expect(body).toMatchObject({ assetId: expect.any(String), avatarURL: expect.any(String) })

    expect(await server.exited).toBe(0)
    expect(Date.now() - stoppedAt).toBeLessThan(10_000)

    // The in-flight request committed before the database was closed.
    const database = openDatabase(server.database.target)
    try {
      const settings = await database.db.selectFrom('account_settings').select('avatar_asset_id')
        .where('avatar_asset_id', '=', body.assetId).execute()
      expect(settings).toHaveLength(1)
    } finally {
      await database.close()
    }
  })

  it('does not wait for idle keep-alive connections', async () => {
    server = await startServer(kind)
    const agent = new Agent({ keepAlive: true })
    const first = request(`${server.baseUrl}/healthz`, { agent })
    const answered = responseOf(first)
    first.end()
    const response = await answered
    expect(response.status).toBe(200)
    expect(response.headers.connection).toBe('keep-alive')

    const stoppedAt = Date.now()
    server.process.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    // Far below SHUTDOWN_TIMEOUT_MS (10 s): the idle connection was closed, not waited for.
    expect(Date.now() - stoppedAt).toBeLessThan(3000)
    agent.destroy()
  })
})

function responseOf(outgoing: ClientRequest) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
    outgoing.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }))
      response.on('error', reject)
    })
    outgoing.on('error', reject)
  })
}

/** Polls new TCP connections until one is refused; false when none was within `timeoutMs`. */
async function connectionRefusedWithin(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(false)
      })
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
    })
    if (refused) return true
    await sleep(25)
  }
  return false
}

/** A real 1x1 red PNG: signature, IHDR, one deflated scanline in IDAT, IEND. */
function onePixelPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const checksum = Buffer.alloc(4)
    checksum.writeUInt32BE(crc32(typeAndData))
    return Buffer.concat([length, typeAndData, checksum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(1, 0) // width
  header.writeUInt32BE(1, 4) // height
  header.writeUInt8(8, 8) // bit depth
  header.writeUInt8(2, 9) // colour type: truecolour
  const scanline = Buffer.from([0, 255, 0, 0]) // filter byte, then R G B
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanline)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
