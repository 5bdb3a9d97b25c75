// The cluster bench's S3-compatible server (s3rver) in a process of its own, so the load
// generator does not share an event loop with it: prints the settings a node needs as one JSON
// line on stdout, then serves until SIGTERM.
import { startLocalS3 } from '../test/s3-server.ts'

const s3 = await startLocalS3()
process.stdout.write(`${JSON.stringify(s3.env)}\n`)
process.once('SIGTERM', () => { void s3.close().then(() => process.exit(0)) })
