import { BranchTokenError } from './errors'

/**
 * The tokens a branch may still use. Every sample is charged to its branch and to each
 * enclosing branch, so a sub-branch can never spend its parent's budget twice.
 */
export class TokenBudget {
  private used = 0

  constructor(
    private readonly limit: number | undefined,
    private readonly depth: number,
    private readonly parent: TokenBudget | undefined,
  ) {}

  /** The fewest tokens left here or in any enclosing branch; undefined when unbounded. */
  remaining(): number | undefined {
    const own = this.limit === undefined ? undefined : this.limit - this.used
    const above = this.parent?.remaining()
    if (own === undefined) return above
    return above === undefined ? own : Math.min(own, above)
  }

  /** Throws before a sample when some enclosing budget is already spent. */
  ensureAvailable(): void {
    for (let budget: TokenBudget | undefined = this; budget; budget = budget.parent) {
      if (budget.limit !== undefined && budget.used >= budget.limit) {
        throw new BranchTokenError(budget.used, budget.limit, budget.depth)
      }
    }
  }

  /** Records a sample's tokens everywhere, then throws if any budget was exceeded. */
  charge(tokens: number): void {
    let exceeded: TokenBudget | undefined
    for (let budget: TokenBudget | undefined = this; budget; budget = budget.parent) {
      budget.used += tokens
      if (!exceeded && budget.limit !== undefined && budget.used > budget.limit) exceeded = budget
    }
    if (exceeded) throw new BranchTokenError(exceeded.used, exceeded.limit!, exceeded.depth)
  }
}
