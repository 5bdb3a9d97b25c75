// Projects: a workspace's projects (create, list, read, change, archive) and their members with
// working roles. Roles grant nothing; permissions come from the workspace membership. Project
// memory is a later module. Other modules use the functions exported here.
import type { FastifyPluginAsync } from 'fastify'
import type { AppDeps } from '../../platform/deps.ts'
import { projectRoutes } from './routes.ts'
import { projectSchemas } from './schemas.ts'

export { addProjectMember, defaultProjectRole, removeFromWorkspaceProjects } from './membership.ts'
export { findProject, listActiveProjects, listProjects } from './repo.ts'
export { presentProject } from './presenter.ts'

export function projectsModule(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    for (const schema of projectSchemas) app.addSchema(schema)
    projectRoutes(app, deps)
  }
}
