// Blobs as objects in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2 …), so every node of a
// cluster sees them without shared disks and without growing the database. A put resolves when
// the service answered 200 to PutObject, which S3 acknowledges only once the object is stored
// durably; the SDK sends a CRC32 of the body that the service checks, so a cut request stores nothing.
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import type { S3Config } from '../../config.ts'
import { assertBlobKey, type BlobStore } from './types.ts'

/** A timed-out or refused call fails its request (a 5xx mapped by the caller), it does not hang. */
const CONNECT_TIMEOUT_MS = 5_000
const REQUEST_TIMEOUT_MS = 30_000

export function createS3Client(config: S3Config): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    requestHandler: {
      connectionTimeout: CONNECT_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      // Many chunks are stored at once; the SDK's default of 50 sockets queues the rest.
      httpAgent: { keepAlive: true, maxSockets: 256 },
      httpsAgent: { keepAlive: true, maxSockets: 256 },
    },
  })
}

/**
 * Only NoSuchKey means "no such blob": a missing bucket (NoSuchBucket, also a 404) or refused
 * access is a failure. S3 answers NoSuchKey only to credentials allowed s3:ListBucket; without it
 * a missing key is a 403 (docs/configuration.md).
 */
const isMissing = (error: unknown) => (error as { name?: string }).name === 'NoSuchKey'

export function createS3BlobStore(config: S3Config, client: S3Client = createS3Client(config)): BlobStore {
  const Bucket = config.bucket
  const objectKey = (key: string) => {
    assertBlobKey(key)
    return config.prefix + key
  }
  return {
    kind: 's3',
    async put(key, data) {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: data, ContentLength: data.byteLength }))
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }))
        return object.Body ? await object.Body.transformToByteArray() : new Uint8Array(0)
      } catch (error) {
        if (isMissing(error)) return undefined
        throw error
      }
    },
    async delete(key) {
      // S3 answers 204 whether or not the key existed.
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }))
    },
    close() {
      client.destroy()
    },
  }
}
