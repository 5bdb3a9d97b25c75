// What only the S3 store has: its key prefix, and failures of the bucket that must not pass for
// "no such blob". The shared contract runs in blobs.test.ts.
import { ListObjectsV2Command } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalS3, type LocalS3 } from '../../../test/s3-server.ts'
import { createS3BlobStore, createS3Client } from './s3.ts'

describe('S3 blob store', () => {
  let s3: LocalS3
  beforeAll(async () => {
    s3 = await startLocalS3()
  })
  afterAll(async () => {
    await s3?.close()
  })

  it('stores each key under its prefix, so two deployments can share a bucket', async () => {
    const a = createS3BlobStore({ ...s3.config, prefix: 'a/' })
    const b = createS3BlobStore({ ...s3.config, prefix: 'b/' })
    await a.put('audio/ses_1/c1', Buffer.from('from a'))
    expect(await b.get('audio/ses_1/c1')).toBeUndefined()
    const client = createS3Client(s3.config)
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.config.bucket, Prefix: 'a/' }))
    expect(listed.Contents?.map((object) => object.Key)).toEqual(['a/audio/ses_1/c1'])
    client.destroy()
    a.close?.()
    b.close?.()
  })

  it('fails, rather than reporting a missing blob, when the bucket does not exist', async () => {
    const store = createS3BlobStore({ ...s3.config, bucket: 'no-such-bucket' })
    await expect(store.get('any/key')).rejects.toThrow()
    await expect(store.put('any/key', Buffer.from('x'))).rejects.toThrow()
    store.close?.()
  })

  it('fails when the server cannot be reached', async () => {
    const store = createS3BlobStore({ ...s3.config, endpoint: 'http://127.0.0.1:1' })
    await expect(store.get('any/key')).rejects.toThrow()
    store.close?.()
  })
})
