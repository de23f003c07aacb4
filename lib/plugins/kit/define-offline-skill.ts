import type { z } from 'zod'
import type { OfflineSkill } from '../../models'
import type { AnyMcpTool } from '../../tools'

/** A skill as its plugin writes it: everything but the tool's name, with the tool's own argument type. */
export type OfflineSkillFor<TTool extends AnyMcpTool> = Omit<OfflineSkill<z.input<TTool['parameters']>>, 'toolName'>

/**
 * A plugin's offline skill (its `offline.ts`), bound to its tool: `recognise` returns the
 * tool's own arguments, type-checked against its parameters.
 *
 * @example
 * export const greetOffline = defineOfflineSkill(greetTool, {
 *   example: 'greet someone (“Say hello to Ada”)',
 *   recognise: ({ text }) => {
 *     const name = /\bhello to (\w+)/i.exec(text)?.[1]
 *     return name ? { confidence: 1, text: `Greeting ${name}.`, calls: [{ name }] } : undefined
 *   },
 * })
 */
export function defineOfflineSkill<TTool extends AnyMcpTool>(tool: TTool, skill: OfflineSkillFor<TTool>): OfflineSkill {
  return { ...skill, toolName: tool.name } as OfflineSkill
}
