// A server speaking the S3 protocol on 127.0.0.1 (the `s3rver` package, objects under a temp
// directory) with one bucket, for the S3 blob store's tests, the e2e capture and the cluster bench.
import S3rver from 's3rver'
import type { S3Config } from '../src/config.ts'
import { tempDir } from './databases.ts'

export type LocalS3 = {
  config: S3Config
  /** the settings a `serve` process needs to use this bucket */
  env: Record<string, string>
  close(): Promise<void>
}

export const S3_BUCKET = 'confer-test'
const KEY = 'S3RVER'

export async function startLocalS3(directory = tempDir('confer-s3-')): Promise<LocalS3> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: S3_BUCKET }] })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  return {
    config: { endpoint, bucket: S3_BUCKET, region: 'us-east-1', credentials: { accessKeyId: KEY, secretAccessKey: KEY }, forcePathStyle: true, prefix: '' },
    env: { BLOB_STORE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: KEY, S3_SECRET_ACCESS_KEY: KEY },
    close: () => server.close(),
  }
}
