import type { ValidationIssue } from '../protocol/events'

/** A branch would be nested deeper than its `maxDepth` allows. */
export class BranchDepthError extends Error {
  override name = 'BranchDepthError'
  constructor(
    readonly depth: number,
    readonly maxDepth: number,
  ) {
    super(`A branch at depth ${depth} exceeds the limit of maxDepth ${maxDepth}.`)
  }
}

/** Sampling in a branch used more tokens than its `maxTokens` allows. */
export class BranchTokenError extends Error {
  override name = 'BranchTokenError'
  constructor(
    readonly used: number,
    readonly maxTokens: number,
    readonly depth: number,
  ) {
    super(`The branch at depth ${depth} used ${used} tokens of its budget of maxTokens ${maxTokens}.`)
  }
}

/** A branch ran longer than its `timeout`; its work, model calls included, was halted. */
export class BranchTimeoutError extends Error {
  override name = 'BranchTimeoutError'
  constructor(
    readonly timeout: number,
    readonly depth: number,
  ) {
    super(`The branch at depth ${depth} did not finish within its timeout of ${timeout} ms and was halted.`)
  }
}

/** A tool used its ctx in a way the runtime does not allow; the message says how to fix it. */
export class ToolUsageError extends Error {
  override name = 'ToolUsageError'
}

/** The model's answer to a sample with a schema is not JSON that the schema accepts. */
export class SampleOutputError extends Error {
  override name = 'SampleOutputError'
  constructor(
    message: string,
    readonly text: string,
  ) {
    super(message)
  }
}

/** A client answered an elicitation with content the key's schema rejects. */
export class ElicitResponseError extends Error {
  override name = 'ElicitResponseError'
  constructor(
    message: string,
    readonly issues: ValidationIssue[],
  ) {
    super(message)
  }
}

/** A tool being replayed from its journal did something other than what the journal recorded. */
export class ReplayDivergenceError extends Error {
  override name = 'ReplayDivergenceError'
  constructor(
    message: string,
    /** The ctx call where the replay went another way. */
    readonly seq: number,
  ) {
    super(message)
  }
}
