import { createElement, type ComponentType } from 'react'
import { createRoot } from 'react-dom/client'
import type { ElicitAnswer } from '../../../protocol/elicit-answer'
import { choicesOf } from '../../../protocol/question-form'
import type { QuestionProps } from '../../../plugins/types'
import { formResultOf, readForwardedQuestion, type FormResult } from './forwarded-question'
import type { Handshake } from './handshake'
import { BridgeError } from './host-bridge'
import { applyHostLook, type HostLook } from './host-theme'
import { reportSize } from './report-size'

export interface QuestionAppOptions {
  /** The plugin tool and question key this app answers (`ui://<tool>/<key>`). */
  tool: string
  key: string
  /** The component the plugin registered for the key: the same file our chat renders. */
  component: ComponentType<QuestionProps<never, never>>
  /** Where to render; default `#root`. */
  container?: HTMLElement
  /** The handshake with the host, begun before this runs (`beginHandshake`, the document's first script). */
  handshake: Handshake
}

/**
 * Runs one question's MCP App once its handshake is under way (`beginHandshake`: `ui/initialize`
 * declaring `appCapabilities.elicitation`, SEP-3118): takes the host's later theme and CSS
 * variables, reports its size, and answers each `elicitation/create` the host forwards (one that
 * came while the bundle loaded waited in the held bridge) by rendering the component with
 * the question's `QuestionProps` — the message, the context from
 * `_meta["elicit-chat.dev/question"]`, the form's choices — and returning the standard
 * `ElicitResult` it responds with, the content in the form's shape (`formContentFor`). The host
 * validates it against `requestedSchema`; the server checks it again, whoever rendered it.
 * One question at a time: a host binds an app instance to one elicitation.
 */
export async function startQuestionApp({ tool, key, component, container = document.getElementById('root')!, handshake }: QuestionAppOptions): Promise<void> {
  const { bridge } = handshake
  const root = createRoot(container)
  let showing = false

  bridge.onRequest('elicitation/create', (params) => {
    const question = readForwardedQuestion(params, { tool, key })
    if (showing) throw new BridgeError(-32600, 'This app is already showing a question; a host binds one elicitation to an app instance.')
    showing = true
    return new Promise<FormResult>((resolve) => {
      const props = {
        message: question.message,
        context: question.meta.context,
        choices: choicesOf(question.schema),
        // What the question starts from (question({ defaults })), as the chat's component gets it.
        ...(question.meta.defaults ? { defaults: question.meta.defaults } : {}),
        respond(answer: ElicitAnswer<Record<string, unknown>>) {
          if (!showing) return
          showing = false
          render({ ...props, disabled: true, answered: answer })
          resolve(formResultOf(answer, question))
        },
        disabled: false,
      }
      const render = (next: typeof props & { answered?: ElicitAnswer<Record<string, unknown>> }) =>
        root.render(createElement(component, next as unknown as QuestionProps<never, never>))
      render(props)
    })
  })
  bridge.onRequest('ui/resource-teardown', () => {
    root.unmount()
    return {}
  })
  bridge.onNotification('ui/notifications/host-context-changed', (context) => applyHostLook(context as HostLook))
  bridge.release()

  try {
    await handshake.initialized
    reportSize((size) => bridge.notify('ui/notifications/size-changed', size))
  } catch (error) {
    // The host refused the handshake: it will not forward a question; say so where a person looks.
    container.textContent = `This question's app could not start: ${error instanceof Error ? error.message : String(error)}`
  }
}
