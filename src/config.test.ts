import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** The ConfigError thrown for `env`; fails the test when loading succeeds. */
function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error(`loadConfig(${JSON.stringify(env)}) did not throw`)
}

describe('loadConfig defaults', () => {
  it('is the embedded mode: SQLite file under ./data, port 8080, file blobs', () => {
    const config = loadConfig({})
    const dataDir = path.resolve('./data')
    expect(config.nodeEnv).toBe('development')
    expect(config.port).toBe(8080)
    expect(config.host).toBe('0.0.0.0')
    expect(config.dataDir).toBe(dataDir)
    expect(config.database).toEqual({ kind: 'sqlite', path: path.join(dataDir, 'confer.db') })
    expect(config.blobStore).toBe('fs')
    expect(config.blobDir).toBe(path.join(dataDir, 'blobs'))
    expect(config.publicUrl.href).toBe('http://localhost:8080/')
    expect(config.secureCookies).toBe(false)
    expect(config.github).toBeUndefined()
    expect(config.google).toBeUndefined()
    expect(config.oidc).toBeUndefined()
    expect(config.rateLimitAccountPerMinute).toBe(600)
    expect(config.rateLimitPublicPerMinute).toBe(60)
  })

  it('reads the values it is given', () => {
    const config = loadConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://user@db.example:5432/confer',
      BLOB_STORE: 'database',
      GITHUB_CLIENT_ID: 'id',
      GITHUB_CLIENT_SECRET: 'secret',
      LOG_LEVEL: 'debug',
    })
    expect(config.port).toBe(9000)
    expect(config.publicUrl.href).toBe('http://localhost:9000/')
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://user@db.example:5432/confer' })
    expect(config.blobStore).toBe('database')
    expect(config.github).toEqual({ clientId: 'id', clientSecret: 'secret' })
    expect(config.logLevel).toBe('debug')
  })

  it('reads the S3 store: a self-hosted endpoint defaults to path-style, AWS itself to virtual-hosted', () => {
    const selfHosted = loadConfig({
      BLOB_STORE: 's3', S3_BUCKET: 'confer', S3_ENDPOINT: 'http://minio:9000/', S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret', S3_PREFIX: 'prod/',
    })
    expect(selfHosted.s3).toEqual({
      endpoint: 'http://minio:9000', bucket: 'confer', region: 'eu-central-1',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' }, forcePathStyle: true, prefix: 'prod/',
    })
    const aws = loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'confer' })
    expect(aws.s3).toEqual({ endpoint: undefined, bucket: 'confer', region: 'us-east-1', credentials: undefined, forcePathStyle: false, prefix: '' })
    expect(loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://x', S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle).toBe(false)
    expect(loadConfig({ S3_BUCKET: 'ignored' }).s3).toBeUndefined()
  })

  it('turns on secure cookies when PUBLIC_URL is https', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://confer.example.com/' })
    expect(config.secureCookies).toBe(true)
    expect(config.publicUrl.origin).toBe('https://confer.example.com')
  })

  it('accepts production with an AUTH_SECRET of at least 32 characters', () => {
    const config = loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://confer.example.com' })
    expect(config.nodeEnv).toBe('production')
    expect(config.authSecret).toBe('x'.repeat(32))
  })
})

describe('loadConfig refuses bad values, naming the variable', () => {
  const cases: [string, Record<string, string>, string][] = [
    ['a port that is not a number', { PORT: 'abc' }, 'PORT'],
    ['a port out of range', { PORT: '70000' }, 'PORT'],
    ['a database URL of another kind', { DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    ['a public URL that is not http(s)', { PUBLIC_URL: 'ftp://x' }, 'PUBLIC_URL'],
    ['a GitHub client id without its secret', { GITHUB_CLIENT_ID: 'id' }, 'GITHUB_CLIENT_SECRET'],
    ['a GitHub client secret without its id', { GITHUB_CLIENT_SECRET: 'secret' }, 'GITHUB_CLIENT_ID'],
    ['production without AUTH_SECRET', { NODE_ENV: 'production', PUBLIC_URL: 'https://confer.example.com' }, 'AUTH_SECRET'],
    ['production with an http:// PUBLIC_URL', { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), PUBLIC_URL: 'http://confer.example.com' }, 'PUBLIC_URL: must be https://'],
    ['a request timeout under 100 ms', { REQUEST_TIMEOUT_MS: '5' }, 'REQUEST_TIMEOUT_MS'],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ['an unknown blob store', { BLOB_STORE: 's4' }, 'BLOB_STORE'],
    ['an unknown NODE_ENV', { NODE_ENV: 'staging' }, 'NODE_ENV'],
    ['an S3 store without a bucket', { BLOB_STORE: 's3' }, 'S3_BUCKET'],
    ['an S3 endpoint that is not a URL', { BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    ['an S3 access key without its secret', { BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' }, 'S3_SECRET_ACCESS_KEY'],
    ['an S3 path style that is not a boolean', { BLOB_STORE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' }, 'S3_FORCE_PATH_STYLE'],
    ['an S3 prefix without its trailing slash', { BLOB_STORE: 's3', S3_BUCKET: 'b', S3_PREFIX: 'confer' }, 'S3_PREFIX'],
  ]
  it.each(cases)('%s', (_label, env, variable) => {
    expect(configErrorOf(env).message).toContain(variable)
  })

  it('lists every bad variable at once', () => {
    const message = configErrorOf({ PORT: 'abc', LOG_LEVEL: 'loud', BLOB_STORE: 's4' }).message
    expect(message).toContain('PORT')
    expect(message).toContain('LOG_LEVEL')
    expect(message).toContain('BLOB_STORE')
  })
})

describe('the CLI', () => {
  it('exits with code 2 and names the variable on stderr when the configuration is invalid', () => {
    const result = spawnSync(process.execPath, ['src/main.ts', 'serve'], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', PORT: 'abc' },
      encoding: 'utf8',
      timeout: 20_000,
    })
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('PORT')
    expect(result.stderr).toContain('"abc"')
  })
})
