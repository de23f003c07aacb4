import type { z } from 'zod'
import type { ElicitId } from '../tools/types'
import { encodeModelContext, type ModelContext } from '../tools/model-context'
import { toJsonSchema } from './json-schema'

/**
 * An elicitation as it leaves the tool. Only the parts are kept while the tool waits (the
 * context is the tool's own objects); the wire forms are built when read, so a waiting
 * session does not hold a second, encoded copy of its context.
 */
export class BridgeElicitRequest {
  constructor(
    readonly elicitId: string,
    readonly id: ElicitId,
    /** The message for people, without the encoded context. */
    readonly text: string,
    readonly context: ModelContext,
    private readonly responseSchema: z.ZodType,
  ) {}

  get key(): string {
    return this.id.key
  }

  /** The message with the x-model-context section appended. */
  get message(): string {
    return encodeModelContext({ message: this.text, schema: {}, context: this.context }).message
  }

  /** The response's JSON Schema, with `x-model-context`. */
  get schema(): Record<string, unknown> {
    return encodeModelContext({ message: '', schema: toJsonSchema(this.responseSchema), context: this.context }).schema
  }
}
