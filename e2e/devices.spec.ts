import { expect, test, type APIRequestContext } from '@playwright/test'

/*
 * Continue on another device (docs/devices.md), in two browser contexts (two browsers, each with
 * its own cookies): A makes a chat, and a code in the sidebar's dialog; B opens the link A would
 * share and joins; B then lists A's chats; A revokes B in the dialog; B is back to a chat list of
 * its own.
 */

const chatIds = async (request: APIRequestContext) => ((await (await request.get('/api/chats')).json()) as { chats: Array<{ id: string }> }).chats.map((chat) => chat.id)

test('a second browser joins with a code, sees the first one’s chats, and loses them when revoked', async ({ browser }) => {
  const laptop = await browser.newContext()
  const phone = await browser.newContext()
  try {
    const a = await laptop.newPage()
    // The page's first API request (the sidebar's list) gives this browser its identity; a request
    // sent beside it, with no cookie yet, would be given another.
    const listed = a.waitForResponse((response) => new URL(response.url()).pathname === '/api/chats')
    await a.goto('/')
    await listed
    const made = await laptop.request.post('/api/chats', { data: {} })
    expect(made.status()).toBe(201)
    const { chat } = (await made.json()) as { chat: { id: string } }

    const b = await phone.newPage()
    await b.goto('/')
    expect(await chatIds(phone.request)).toEqual([])

    // A, in the sidebar: "Continue on another device" shows a code and the link to share.
    await a.getByRole('button', { name: 'Continue on another device' }).click()
    const dialog = a.getByRole('dialog', { name: 'Continue on another device' })
    const code = (await dialog.getByTestId('device-code').textContent())!.trim()
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/)
    const link = new URL((await dialog.getByRole('link').getAttribute('href'))!)
    const joinPath = link.pathname + link.search

    await b.goto(joinPath)
    await expect(b.getByLabel('Code')).toHaveValue(code)
    await b.getByRole('button', { name: 'Join' }).click()
    await b.waitForURL('/')
    expect(await chatIds(phone.request)).toEqual([chat.id])

    // The code was used: a third browser cannot use it again, and the page says why.
    const third = await browser.newContext()
    try {
      const c = await third.newPage()
      await c.goto(joinPath)
      await c.getByRole('button', { name: 'Join' }).click()
      await expect(c.getByRole('alert').filter({ hasText: 'not right, or it was used already' })).toBeVisible()
      await expect(c).toHaveURL(/\/join\?code=/)
    } finally {
      await third.close()
    }

    // A opens the dialog again: B is listed, and A revokes it there.
    await dialog.getByRole('button', { name: 'Done' }).click()
    await a.getByRole('button', { name: 'Continue on another device' }).click()
    const revoke = dialog.getByRole('button', { name: /^Revoke / })
    await expect(revoke).toHaveCount(1)
    await revoke.click()
    await expect(revoke).toHaveCount(0)
    expect(await chatIds(phone.request)).toEqual([])
    expect(await chatIds(laptop.request)).toEqual([chat.id])
  } finally {
    await laptop.close()
    await phone.close()
  }
})
