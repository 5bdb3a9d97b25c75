// Local runner calls: pairing grants, the caller's runners, and the tasks of a work object.
import { api, idempotencyKey, invalidate, useResource } from '../../lib/api.ts'
import type { CreateGrantInput, CreateTaskInput, LocalRunner, RegistrationGrant, RunnerList, RunnerTask, RunnerTaskList } from '../../lib/types.ts'

export const RUNNERS = '/v1/local-runner/runners'
export const tasksPath = (workObjectId: string) => `/v1/local-runner/tasks?workObjectId=${encodeURIComponent(workObjectId)}`
export const useRunners = () => useResource<RunnerList>(RUNNERS)
export const useRunnerTasks = (workObjectId: string) => useResource<RunnerTaskList>(tasksPath(workObjectId))

export const runners = {
  createGrant: (input: CreateGrantInput = {}) => api.post<RegistrationGrant>('/v1/local-runner/registration-grants', input),
  revoke: async (runner: LocalRunner) => {
    const result = await api.delete<LocalRunner>(`/v1/local-runner/runners/${encodeURIComponent(runner.id)}`)
    invalidate(RUNNERS)
    return result
  },
  request: async (input: CreateTaskInput) => {
    const task = await api.post<RunnerTask>('/v1/local-runner/tasks', input, { 'idempotency-key': idempotencyKey() })
    invalidate(tasksPath(input.workObjectId))
    return task
  },
  confirm: async (task: RunnerTask) => {
    const result = await api.post<RunnerTask>(`/v1/local-runner/tasks/${encodeURIComponent(task.id)}/confirm`, {})
    invalidate(tasksPath(task.workObjectId))
    return result
  },
  cancel: async (task: RunnerTask) => {
    const result = await api.post<RunnerTask>(`/v1/local-runner/tasks/${encodeURIComponent(task.id)}/cancel`, {})
    invalidate(tasksPath(task.workObjectId))
    return result
  },
}
