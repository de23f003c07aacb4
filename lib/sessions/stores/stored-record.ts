import { decodeSessionRecord, SessionRecordError, type SessionRecord } from '../session-record'

/**
 * The record in `text`, stored under `clientId` and `id`: validated, and refused with a
 * `SessionRecordError` when it is unreadable or names another owner or session than its key.
 */
export function readStoredRecord(text: string, clientId: string, id: string): SessionRecord {
  const record = decodeSessionRecord(text)
  if (record.clientId !== clientId || record.id !== id) {
    throw new SessionRecordError('The stored session does not belong under the key it was found under.')
  }
  return record
}

/** The record, or undefined when it cannot be read: `list` leaves such records out (`get` reports them). */
export function readListedRecord(text: string, clientId: string, id: string): SessionRecord | undefined {
  try {
    return readStoredRecord(text, clientId, id)
  } catch (error) {
    if (error instanceof SessionRecordError) return undefined
    throw error
  }
}
