import { useAbortSignal, type Operation, type Task } from 'effection'
import type { ElicitAnswer } from '../protocol/elicit-answer'
import { createPluginClientContext, executePluginElicitHandler } from '../plugins'
import type { PluginRegistry, RenderedComponent } from '../plugins'
import { allElicitations, type ChatAction } from './chat-state'
import type { ElicitationEntry } from './display-entries'
import type { ChatStore } from './chat-store'
import { openPageScope, type PageScope } from './page-scope'

/** Where a render of an elicitation attempt is kept: a rejected answer starts a new attempt. */
export function renderKey({ question, attempt }: Pick<ElicitationEntry, 'question' | 'attempt'>): string {
  return `${question.elicitId}#${attempt}`
}

/**
 * What a handler's renders were answered, for it to replay: its answers so far, then, once it
 * has its result, that result for the render it returned the answer of (see `local/answered`).
 * A handler that failed replays only its answers.
 */
export function recordedAnswers({ answers, result, error }: Pick<ElicitationEntry, 'answers' | 'result' | 'error'>): readonly unknown[] {
  return result && error === undefined ? [...answers, result] : answers
}

/**
 * The plugin handlers of the chat's questions, run in the browser as Effection tasks of one
 * scope: exactly one task per elicitation attempt (`renderKey`), started once its plugin's
 * browser half is here and halted as soon as its elicitation no longer waits. What a task
 * renders goes to the snapshot's `renders`; what it returns reaches the state as one
 * `local/answered`. The tasks follow the state, never the other way round (`reconcile`).
 */
export interface HandlerTasks {
  /** Open the scope the handlers run in. */
  open(): void
  /** Halt every handler and close their scope; `open` starts again. */
  close(): void
  readonly isOpen: boolean
  /** Run an operation in the handlers' scope, so that `close` halts it too. */
  run(operation: () => Operation<void>): void
  /** Start a handler for every elicitation without one; halt those whose elicitation no longer waits. */
  reconcile(): void
}

interface HandlerTask {
  task: Task<void>
  done: boolean
  /** The answers to its renders so far, by render index: recorded ones, then the user's. */
  answers: unknown[]
  /** The render the user answered last, while the handler has not moved on from it. */
  lastAnswered?: number
}

type HandlerRecord = Omit<HandlerTask, 'task'>

export function createHandlerTasks({
  registry,
  store,
  dispatch,
  afterReconcile,
}: {
  registry: PluginRegistry
  store: ChatStore
  /** Apply an action to the chat (and reconcile again). */
  dispatch: (action: ChatAction) => void
  /** Called after every reconcile: the state may now have answers due to be sent. */
  afterReconcile: () => void
}): HandlerTasks {
  const handlers = new Map<string, HandlerTask>()
  /** Plugins whose browser half is on its way, and those that could not be loaded. */
  const loading = new Set<string>()
  const failedLoads = new Set<string>()
  let scope: PageScope | undefined
  let reconciling = false
  let reconcileAgain = false

  function reconcile() {
    if (!scope) return
    if (reconciling) {
      reconcileAgain = true
      return
    }
    reconciling = true
    try {
      do {
        reconcileAgain = false
        const elicitations = allElicitations(store.getSnapshot().state)
        const keys = new Set(elicitations.map(renderKey))
        for (const elicitation of elicitations) {
          const key = renderKey(elicitation)
          if (!handlers.has(key) && pluginArrived(elicitation.question.toolName)) start(elicitation)
          const handler = handlers.get(key)
          if (handler && !handler.done && elicitation.status !== 'waiting') halt(handler)
        }
        for (const [key, handler] of handlers) {
          if (!keys.has(key) && !handler.done) halt(handler)
        }
        const snapshot = store.getSnapshot()
        const staleRenders = Object.keys(snapshot.renders).filter((key) => !keys.has(key))
        if (staleRenders.length > 0) {
          const renders = { ...snapshot.renders }
          for (const key of staleRenders) delete renders[key]
          store.publish({ ...snapshot, renders })
        }
      } while (reconcileAgain)
    } finally {
      reconciling = false
    }
    afterReconcile()
  }

  /**
   * Whether the browser half of the tool's plugin is here (or there is none, or it failed to
   * load: the handler then says so). If not, it is fetched and the handlers start once it is:
   * a handler must get to its first render at once, since the answered ones shown after a
   * reload are halted right after.
   */
  function pluginArrived(toolName: string): boolean {
    if (registry.get(toolName) || !registry.has(toolName) || failedLoads.has(toolName)) return true
    if (!loading.has(toolName)) {
      loading.add(toolName)
      registry.load(toolName).then(
        () => {
          loading.delete(toolName)
          reconcile()
        },
        () => {
          loading.delete(toolName)
          failedLoads.add(toolName)
          reconcile()
        },
      )
    }
    return false
  }

  function halt(handler: HandlerTask) {
    handler.done = true
    // Halted by a task of the same scope, which awaits it; a handler whose cleanup fails is reported, and the others go on.
    scope?.run(function* () {
      try {
        yield* handler.task.halt()
      } catch (error) {
        console.error('A question handler failed as it was stopped:', error)
      }
    })
  }

  function start(elicitation: ElicitationEntry) {
    if (!scope) return
    const recorded = recordedAnswers(elicitation)
    const record: Partial<HandlerTask> & HandlerRecord = { done: false, answers: [...recorded] }
    handlers.set(renderKey(elicitation), record as HandlerTask)
    record.task = scope.run(() => runHandler(elicitation, recorded, record))
  }

  function* runHandler(elicitation: ElicitationEntry, recorded: readonly unknown[], record: HandlerRecord): Operation<void> {
    const signal = yield* useAbortSignal()
    const ctx = createPluginClientContext({
      request: elicitation.question,
      signal,
      recorded,
      show: (rendered) => show(elicitation, recorded, record, rendered),
    })
    let result: ElicitAnswer
    let error: string | undefined
    try {
      result = yield* executePluginElicitHandler({ registry, request: elicitation.question, ctx })
    } catch (failure) {
      // Without a working UI the tool would wait forever: answer "cancel" and say why.
      result = { action: 'cancel' }
      error = failure instanceof Error ? failure.message : String(failure)
    }
    record.done = true
    // A handler that returns its last render's answer (a question's component) has it once: as the result.
    const last = record.lastAnswered
    const answers = last !== undefined && last === record.answers.length - 1 && record.answers[last] === result ? record.answers.slice(0, last) : record.answers
    dispatch({ type: 'local/answered', elicitId: elicitation.question.elicitId, attempt: elicitation.attempt, answers, result, error })
  }

  /**
   * Show a render; keep what the user answered it. The answer is stored when the handler moves
   * on: to its next render (`local/answer`) or to its result (`local/answered`) — one action per
   * click either way.
   */
  function show(elicitation: ElicitationEntry, recorded: readonly unknown[], record: HandlerRecord, rendered: RenderedComponent) {
    const key = renderKey(elicitation)
    const snapshot = store.getSnapshot()
    const list = [...(snapshot.renders[key] ?? [])]
    list[rendered.index] = rendered
    store.publish({ ...snapshot, renders: { ...snapshot.renders, [key]: list } })
    if (rendered.answered && rendered.index >= recorded.length) {
      record.answers[rendered.index] = rendered.response
      record.lastAnswered = rendered.index
    } else if (!rendered.answered && record.lastAnswered !== undefined) {
      record.lastAnswered = undefined
      dispatch({ type: 'local/answer', elicitId: elicitation.question.elicitId, attempt: elicitation.attempt, answers: [...record.answers] })
    }
  }

  return {
    open() {
      if (scope) return
      scope = openPageScope()
    },
    close() {
      scope?.close()
      scope = undefined
      handlers.clear()
    },
    get isOpen() {
      return scope !== undefined
    },
    run(operation) {
      scope?.run(operation)
    },
    reconcile,
  }
}
