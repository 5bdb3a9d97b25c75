// The few members of the untyped `s3rver` package (a local S3 server for tests and the cluster bench).
declare module 's3rver' {
  type Options = {
    port?: number
    address?: string
    silent?: boolean
    directory: string
    configureBuckets?: { name: string }[]
  }
  export default class S3rver {
    constructor(options: Options)
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
