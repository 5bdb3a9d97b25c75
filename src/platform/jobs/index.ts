// Durable background jobs (DESIGN §1): a `jobs` table on either database, workers in the server
// process (`serve`) or alone (`worker`), retries with backoff, leases, and dead letters that stay
// in the table for operators (docs/configuration.md, "Jobs").
export { defineJob, exponentialBackoff, type JobContext, type JobDefinition } from './registry.ts'
export { enqueue, type EnqueueOptions } from './queue.ts'
export { createJobRunner, type JobRunner, type JobRunnerOptions } from './runner.ts'
