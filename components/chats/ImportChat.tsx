import { useId, useState, type ChangeEvent } from 'react'
import { ChatsApiError, importChat } from './chats-api'
import { UploadIcon } from './sidebar-icons'

/**
 * Import a chat from its JSON export (the sidebar's "Download as JSON"): a file input in a label
 * that looks like a button. The server validates it; a refusal is shown in its own words.
 */
export function ImportChat({ onImported }: { onImported: (id: string) => void }) {
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const errorId = useId()

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget
    const file = input.files?.[0]
    if (!file) return
    setBusy(true)
    setError(undefined)
    try {
      let exported: unknown
      try {
        exported = JSON.parse(await file.text())
      } catch {
        throw new ChatsApiError(`${file.name} is not JSON: choose a chat’s JSON export (Download as JSON).`, 400)
      }
      onImported(await importChat(exported))
    } catch (failure) {
      setError(failure instanceof ChatsApiError ? failure.message : 'The chat could not be imported.')
    } finally {
      setBusy(false)
      // The same file can be chosen again, after fixing it.
      input.value = ''
    }
  }

  return (
    <div>
      <label className="flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm text-zinc-700 transition hover:bg-zinc-200/70 focus-within:ring-2 focus-within:ring-sky-500 dark:text-zinc-300 dark:hover:bg-zinc-800/60">
        <UploadIcon className="h-4 w-4 shrink-0" />
        {busy ? 'Importing…' : 'Import a chat (JSON)'}
        <input
          type="file"
          accept="application/json,.json"
          className="sr-only"
          disabled={busy}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => void onFile(event)}
        />
      </label>
      {error ? (
        <p id={errorId} role="alert" className="px-3 pt-1 text-xs text-red-700 dark:text-red-300">
          Not imported: {error}
        </p>
      ) : null}
    </div>
  )
}
