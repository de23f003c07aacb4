import type { ToolListing } from './use-tools'
import type { ServerSuggestion } from './EmptyState'

/**
 * One suggestion per external server that is up and offers a tool a person may call: the
 * slash command its tool names start with (the whole name, and a space, when it has one).
 */
export function serverSuggestions({ tools, servers }: ToolListing): ServerSuggestion[] {
  return servers.flatMap(({ name, status }) => {
    if (status !== 'ready') return []
    const names = tools.filter((tool) => tool.source === `mcp:${name}` && !tool.appOnly).map((tool) => tool.name)
    if (names.length === 0) return []
    return [{ server: name, command: names.length === 1 ? `/${names[0]} ` : `/${commonPrefix(names)}` }]
  })
}

function commonPrefix(names: readonly string[]): string {
  let prefix = names[0]!
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1)
  return prefix
}
