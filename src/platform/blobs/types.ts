// The blob store contract every store implements (filesystem, database, S3-compatible).

export type BlobStore = {
  readonly kind: 'fs' | 'database' | 's3'
  /** Durable when the promise resolves: a crash after that never loses the bytes. */
  put(key: string, data: Uint8Array): Promise<void>
  /** Several blobs, all durable when the promise resolves (a store may share its syncs among them). */
  putMany?(entries: { key: string; data: Uint8Array }[]): Promise<void>
  get(key: string): Promise<Uint8Array | undefined>
  delete(key: string): Promise<void>
  /** releases connections (the S3 client's sockets); the others hold nothing */
  close?(): void
}

/** Keys are slash-separated segments of [A-Za-z0-9_.-]; anything else is a programming error. */
export function assertBlobKey(key: string) {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/.test(key)) throw new Error(`invalid blob key ${key}`)
}
