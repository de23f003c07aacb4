import { getChatApp } from './lib/server/chat-server-instance'

/*
 * Opens the session store and checks the configuration when the server starts, so that a
 * wrong REDIS_URL, a missing SESSION_SECRET or an unwritable DATA_DIR stops the server at once
 * with a message saying what to change, not at the first request.
 */
try {
  const { store } = await getChatApp()
  console.log(`Sessions: ${store} store`)
} catch (error) {
  console.error(`The chat server cannot start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
