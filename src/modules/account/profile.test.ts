import { expect, it, vi } from 'vitest'
import { gifImage, pngImage } from '../../../test/fixtures.ts'
import { eachDatabase } from '../../../test/harness.ts'

eachDatabase('account profile and avatar', (h) => {
  it('updates name, locale and time zone', async () => {
    const person = await h.member()
    const response = await person.patch('/v1/account/profile', { name: '  Ada Lovelace ', locale: 'zh-hans', timezone: 'Europe/London' })
    expect(response.statusCode).toBe(200)
    expect(response.json().account).toMatchObject({ name: 'Ada Lovelace', locale: 'zh-Hans', timezone: 'Europe/London' })
    expect((await person.get('/v1/account/current')).json().account).toMatchObject({ name: 'Ada Lovelace', locale: 'zh-Hans' })
  })

  it.each([
    [{ name: '   ' }, 'name'],
    [{ timezone: 'Mars/Olympus' }, 'timezone'],
    [{ locale: 'not a tag!' }, 'locale'],
    [{ nickname: 'x' }, 'nickname'],
    [{}, 'body'],
  ])('rejects %j with 400 naming %s, changing nothing', async (body, field) => {
    const person = await h.member()
    const before = (await person.get('/v1/account/current')).json().account
    const response = await person.patch('/v1/account/profile', body)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ code: 'validation_failed', status: 400 })
    expect(response.json().errors.map((error: { field: string }) => error.field)).toContain(field)
    expect((await person.get('/v1/account/current')).json().account).toEqual(before)
  })

  it('stores an avatar validated by content and serves it through a signed link', async () => {
    const person = await h.member()
    const image = pngImage(3, 2)
    const response = await person.put('/v1/account/avatar', image, { 'content-type': 'image/png' })
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.assetId).toMatch(/^ast_/)
    expect(body.account.avatarURL).toMatch(/^http:\/\/localhost:8080\/v1\/assets\/ast_/)

    const link = new URL(body.avatarURL)
    const download = await h.anonymous.get(link.pathname + link.search)
    expect(download.statusCode).toBe(200)
    expect(download.headers['content-type']).toBe('image/png')
    expect(download.rawPayload.equals(image)).toBe(true)

    // The type comes from the bytes, not from the header the client sent.
    const gif = await person.put('/v1/account/avatar', gifImage, { 'content-type': 'image/png' })
    expect(gif.statusCode).toBe(200)
    const gifLink = new URL(gif.json().avatarURL)
    expect((await h.anonymous.get(gifLink.pathname + gifLink.search)).headers['content-type']).toBe('image/gif')
  })

  it('refuses bodies that are not images, too large, or not image content types', async () => {
    const person = await h.member()
    const text = await person.put('/v1/account/avatar', Buffer.from('definitely not a picture'), { 'content-type': 'image/png' })
    expect(text.statusCode).toBe(415)
    expect(text.json().code).toBe('unsupported_image')
    const json = await person.put('/v1/account/avatar', { image: 'x' })
    expect(json.statusCode).toBe(415)
    const huge = Buffer.concat([pngImage(), Buffer.alloc(2 * 1024 * 1024)])
    const tooLarge = await person.put('/v1/account/avatar', huge, { 'content-type': 'image/png' })
    expect(tooLarge.statusCode).toBe(413)
    expect(tooLarge.json().code).toBe('payload_too_large')
    expect((await person.get('/v1/account/current')).json().account.avatarURL).toBeUndefined()
  })

  it('refuses tampered and expired asset links', async () => {
    const person = await h.member()
    const uploaded = await person.put('/v1/account/avatar', pngImage(), { 'content-type': 'image/png' })
    const link = new URL(uploaded.json().avatarURL)
    const token = link.searchParams.get('token')!
    const tampered = await h.anonymous.get(`${link.pathname}?token=${token.slice(0, -2)}xx`)
    expect(tampered.statusCode).toBe(403)
    expect(tampered.json().code).toBe('invalid_token')
    const otherAsset = await h.anonymous.get(`/v1/assets/ast_01H00000000000000000000000?token=${token}`)
    expect(otherAsset.statusCode).toBe(403)

    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + (h.config.assetTokenTtlSeconds + 5) * 1000)
      const expired = await h.anonymous.get(link.pathname + link.search)
      expect(expired.statusCode).toBe(403)
      expect(expired.json().code).toBe('token_expired')
    } finally {
      vi.useRealTimers()
    }
  })
})
