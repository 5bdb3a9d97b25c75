// Identifiers are a type prefix plus a ULID (DESIGN §3); tokens for outsiders are random and stored hashed.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { monotonicFactory } from 'ulid'

// The default PRNG asks the OS for randomness per character (~50 µs an id); drawing from a pooled
// buffer of crypto-random bytes keeps ids unpredictable at a fraction of the cost.
const POOL_SIZE = 4096
let pool = randomBytes(POOL_SIZE)
let poolOffset = 0
function pooledRandom(): number {
  if (poolOffset + 4 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE)
    poolOffset = 0
  }
  const value = pool.readUInt32BE(poolOffset) / 0x1_0000_0000
  poolOffset += 4
  return value
}

const nextUlid = monotonicFactory(pooledRandom)

export type IdPrefix =
  | 'acc' | 'wsp' | 'prj' | 'ses' | 'cnv' | 'seg' | 'wst' | 'wo' | 'rev' | 'cmt' | 'rvw' | 'ntf'
  | 'inv' | 'act' | 'rec' | 'exe' | 'con' | 'run' | 'tsk' | 'vid' | 'ast' | 'mem' | 'req' | 'msg'
  | 'otp' | 'shr' | 'wac' | 'clr' | 'rel' | 'tko' | 'rgr' | 'lse'
  | 'mcf' | 'obs' | 'xsr' | 'cbs' | 'chk' | 'ven'

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${nextUlid()}`
}

/** 256 random bits, URL-safe. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url')
}

export function sha256Hex(value: string | Uint8Array): string {
  return createHash('sha256').update(value).digest('hex')
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

export function nowIso(): string {
  return new Date().toISOString()
}
