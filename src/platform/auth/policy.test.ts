import { describe, expect, it } from 'vitest'
import type { Membership } from './actor.ts'
import { allows, canEditContent, isManager } from './policy.ts'

const member = (accessRole: Membership['accessRole'], contentPermission: Membership['contentPermission']): Membership =>
  ({ workspaceId: 'wsp_1', accessRole, contentPermission, jobRole: null })

describe('isManager', () => {
  it('is true for owners and admins, false for members', () => {
    expect(isManager(member('owner', 'edit'))).toBe(true)
    expect(isManager(member('admin', 'view'))).toBe(true)
    expect(isManager(member('member', 'edit'))).toBe(false)
  })
})

describe('canEditContent', () => {
  it('follows the content permission, not the access role', () => {
    expect(canEditContent(member('member', 'edit'))).toBe(true)
    expect(canEditContent(member('member', 'view'))).toBe(false)
    expect(canEditContent(member('admin', 'view'))).toBe(false)
    expect(canEditContent(member('owner', 'edit'))).toBe(true)
  })
})

describe('allows', () => {
  const table: [Membership['accessRole'], Membership['contentPermission'], { view: boolean; edit: boolean; manage: boolean }][] = [
    ['owner', 'edit', { view: true, edit: true, manage: true }],
    ['admin', 'edit', { view: true, edit: true, manage: true }],
    ['admin', 'view', { view: true, edit: false, manage: true }],
    ['member', 'edit', { view: true, edit: true, manage: false }],
    ['member', 'view', { view: true, edit: false, manage: false }],
  ]
  it.each(table)('%s with %s content permission', (role, permission, expected) => {
    const membership = member(role, permission)
    expect({
      view: allows(membership, 'view'),
      edit: allows(membership, 'edit'),
      manage: allows(membership, 'manage'),
    }).toEqual(expected)
  })
})
