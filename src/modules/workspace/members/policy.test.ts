import { describe, expect, it } from 'vitest'
import type { Membership } from '../../../platform/auth/actor.ts'
import { canChangeMember, canRemoveMember } from './policy.ts'

const as = (accessRole: Membership['accessRole'], contentPermission: Membership['contentPermission'] = 'edit'): Membership =>
  ({ workspaceId: 'wsp_1', accessRole, contentPermission, jobRole: null })
const target = (accessRole: Membership['accessRole']) => ({ accessRole })

describe('canChangeMember', () => {
  it('lets managers change members and admins, members change nobody', () => {
    expect(canChangeMember(as('admin'), target('member'), 'admin', 1)).toEqual({ allowed: true })
    expect(canChangeMember(as('owner'), target('admin'), 'member', 1)).toEqual({ allowed: true })
    expect(canChangeMember(as('admin', 'view'), target('member'), undefined, 1)).toEqual({ allowed: true })
    expect(canChangeMember(as('member'), target('member'), 'admin', 1)).toMatchObject({ allowed: false, code: 'forbidden' })
  })

  it('keeps owners to owners: only an owner makes an owner or changes one', () => {
    expect(canChangeMember(as('admin'), target('member'), 'owner', 1)).toMatchObject({ allowed: false, code: 'forbidden' })
    expect(canChangeMember(as('admin'), target('owner'), undefined, 2)).toMatchObject({ allowed: false, code: 'forbidden' })
    expect(canChangeMember(as('owner'), target('member'), 'owner', 1)).toEqual({ allowed: true })
    expect(canChangeMember(as('owner'), target('owner'), 'admin', 2)).toEqual({ allowed: true })
  })

  it('never demotes the last owner, but lets it change its content permission', () => {
    expect(canChangeMember(as('owner'), target('owner'), 'admin', 1)).toMatchObject({ allowed: false, code: 'last_owner' })
    expect(canChangeMember(as('owner'), target('owner'), 'member', 1)).toMatchObject({ allowed: false, code: 'last_owner' })
    expect(canChangeMember(as('owner'), target('owner'), 'owner', 1)).toEqual({ allowed: true })
    expect(canChangeMember(as('owner'), target('owner'), undefined, 1)).toEqual({ allowed: true })
  })
})

describe('canRemoveMember', () => {
  it('lets managers remove members and admins', () => {
    expect(canRemoveMember(as('admin'), target('member'), 1)).toEqual({ allowed: true })
    expect(canRemoveMember(as('admin'), target('admin'), 1)).toEqual({ allowed: true })
    expect(canRemoveMember(as('member'), target('member'), 1)).toMatchObject({ allowed: false, code: 'forbidden' })
  })

  it('lets only owners remove owners, and never the last one', () => {
    expect(canRemoveMember(as('admin'), target('owner'), 2)).toMatchObject({ allowed: false, code: 'forbidden' })
    expect(canRemoveMember(as('owner'), target('owner'), 2)).toEqual({ allowed: true })
    expect(canRemoveMember(as('owner'), target('owner'), 1)).toMatchObject({ allowed: false, code: 'last_owner' })
  })
})
