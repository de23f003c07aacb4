'use client'

import { useEffect, useRef, useState } from 'react'
import type { ElicitAnswer } from '@/lib/protocol'
import type { FormQuestionApp } from '@/lib/mcp/client/external-questions'
import { FlatFormError, parseFlatForm } from '@/lib/mcp/client/flat-form'
import { flatFormAnswerSchema } from '@/lib/mcp/client/flat-form-answer'
import { AlertIcon } from '../icons'
import { AppFrame, followHostContext, openAppFrame, useAppFrameChrome } from '../mcp-app/AppFrame'
import { connectQuestionAppBridge, type OpenedQuestionApp } from '../mcp-app/question-app-bridge'
import { AnswerSummary } from './answer-parts'

/**
 * How a question shown in its server's MCP App ended: answered there, or handed to the form,
 * with the reason said in the card. Recorded like any render, so a reload shows the same.
 */
export type QuestionAppOutcome = { via: 'app'; answer: ElicitAnswer<Record<string, unknown>> } | { via: 'form'; reason: string }

/** How long an app may take to load and complete `ui/initialize` before the form is shown instead. */
export const APP_START_TIMEOUT_MS = 10_000

/**
 * An external server's form question answered inside that server's MCP App (app-rendered
 * elicitation, SEP-3118 draft). The app is opened for this one question (the server finds it
 * from the session's own question), runs sandboxed like every MCP App, gets the server's
 * `elicitation/create` unchanged once it has said it answers questions, and its `ElicitResult`
 * is checked against `requestedSchema` here, outside its sandbox (and again on the server, as
 * every answer is). It is torn down before the answer goes out. Whatever goes wrong — the app
 * does not load, does not start, does not answer questions, answers outside the schema — ends
 * with `via: 'form'` and the reason: the handler then shows the generated form.
 */
export function QuestionApp({
  server,
  callId,
  elicitId,
  requestedSchema,
  app,
  onRespond,
  disabled,
  response,
}: {
  server: string
  callId: string
  elicitId: string
  requestedSchema: Record<string, unknown>
  app: FormQuestionApp
  onRespond: (outcome: QuestionAppOutcome) => void
  disabled: boolean
  response?: QuestionAppOutcome
}) {
  if (response?.via === 'app') {
    return (
      <div className="space-y-1 rounded-lg border border-zinc-200 px-3 py-2 dark:border-zinc-700/70" data-testid="question-app-answered">
        <p className="text-xs text-zinc-500 dark:text-zinc-400">Answered in the app of {server}.</p>
        <AnswerSummary answer={response.answer} />
        {response.answer.action === 'accept' ? <AnswerContent requestedSchema={requestedSchema} content={response.answer.content ?? {}} /> : null}
      </div>
    )
  }
  if (response?.via === 'form') {
    return (
      <p role="status" data-testid="question-app-fallback" className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-500/10 dark:text-amber-200">
        <AlertIcon className="mt-0.5 h-4 w-4 shrink-0" />
        <span>
          The app of {server} could not be used: {response.reason} Answer the form instead.
        </span>
      </p>
    )
  }
  if (disabled) return null
  return <LiveQuestionApp server={server} callId={callId} elicitId={elicitId} requestedSchema={requestedSchema} app={app} onRespond={onRespond} />
}

type Opening = { status: 'opening' } | { status: 'open'; opened: OpenedQuestionApp }

function LiveQuestionApp({
  server,
  callId,
  elicitId,
  requestedSchema,
  app,
  onRespond,
}: {
  server: string
  callId: string
  elicitId: string
  requestedSchema: Record<string, unknown>
  app: FormQuestionApp
  onRespond: (outcome: QuestionAppOutcome) => void
}) {
  const [opening, setOpening] = useState<Opening>({ status: 'opening' })
  const chrome = useAppFrameChrome()
  const frame = useRef<HTMLIFrameElement>(null)
  const latest = useRef({ onRespond, app, requestedSchema })
  latest.current = { onRespond, app, requestedSchema }
  /** Answers once: the first outcome wins, whatever else was under way. */
  const answered = useRef(false)
  const respond = (outcome: QuestionAppOutcome) => {
    if (answered.current) return
    answered.current = true
    latest.current.onRespond(outcome)
  }

  useEffect(() => {
    const abort = new AbortController()
    openAppFrame<OpenedQuestionApp>('/api/mcp-apps/question-frames', { callId, elicitId }, abort.signal)
      .then((answer) => {
        if ('opened' in answer) setOpening({ status: 'open', opened: answer.opened })
        else respond({ via: 'form', reason: sentence(answer.refused ?? `the chat's server answered ${answer.status}`) })
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) respond({ via: 'form', reason: sentence(`it could not be loaded (${messageOf(error)})`) })
      })
    // One app per question: opened again only for another question (what changes is read through `latest`).
    return () => abort.abort()
  }, [callId, elicitId])

  const opened = opening.status === 'open' ? opening.opened : undefined
  useEffect(() => {
    const element = frame.current
    const window = element?.contentWindow
    if (!opened || !element || !window) return
    const abort = new AbortController()
    let bridge: Awaited<ReturnType<typeof connectQuestionAppBridge>> | undefined
    let tornDown: Promise<void> | undefined
    const teardown = () => (tornDown ??= bridge ? bridge.teardown(1_000) : Promise.resolve())
    const page = followHostContext({ setHostContext: (context) => bridge?.setHostContext(context), teardown })
    /** Tear the app down, then answer: once React removes the iframe, nothing posted to it arrives. */
    const finish = async (outcome: QuestionAppOutcome) => {
      await teardown()
      if (!abort.signal.aborted) respond(outcome)
    }

    void (async () => {
      try {
        bridge = await connectQuestionAppBridge({
          frame: window,
          opened,
          hostContext: page.hostContext,
          handlers: chrome.handlers,
        })
        if (abort.signal.aborted) return void teardown()
        // Only now: the bridge listens before the app's first message can arrive.
        element.src = opened.src
        const started = await Promise.race([bridge.ready, timeout(APP_START_TIMEOUT_MS, abort.signal)])
        if (abort.signal.aborted) return
        if (!started) return void (await finish({ via: 'form', reason: `it did not start within ${APP_START_TIMEOUT_MS / 1000} s.` }))
        if (!started.answersQuestions) {
          return void (await finish({ via: 'form', reason: 'it does not say it can answer questions (no appCapabilities.elicitation).' }))
        }
        const result = await bridge.ask(latest.current.app.request, abort.signal)
        await finish(checked(result, latest.current.requestedSchema))
      } catch (error) {
        if (!abort.signal.aborted) await finish({ via: 'form', reason: sentence(`it failed: ${messageOf(error)}`) })
      }
    })()

    return () => {
      abort.abort()
      page.stop()
      // Stopped, or the card went away: the app goes too (the chat tears apps down first on New chat).
      void teardown()
    }
    // The app lives as long as its frame: the question and the answer wiring are read through `latest`.
  }, [opened])

  return (
    <div data-testid="question-app" data-app-status={opened ? 'open' : 'opening'}>
      <p className="mb-1 text-xs text-zinc-500 dark:text-zinc-400">{server} asks, in its own app:</p>
      <AppFrame opened={opened} frame={frame} title={`App of ${server} for this question`} testId="question-app-frame" chrome={chrome} />
    </div>
  )
}

/**
 * The app's answer, checked against the question's schema in the chat (the app is not trusted):
 * an accepted answer must fit `requestedSchema` (the server checks it again, as every answer).
 */
function checked(result: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }, requestedSchema: Record<string, unknown>): QuestionAppOutcome {
  if (result.action !== 'accept') return { via: 'app', answer: { action: result.action } }
  let schema
  try {
    schema = flatFormAnswerSchema(parseFlatForm(requestedSchema))
  } catch (error) {
    if (error instanceof FlatFormError) return { via: 'form', reason: `its answer cannot be checked: ${error.message}.` }
    throw error
  }
  const parsed = schema.safeParse(result.content ?? {})
  if (parsed.success) return { via: 'app', answer: { action: 'accept', content: result.content ?? {} } }
  const why = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'the answer'}: ${issue.message}`).join('; ')
  return { via: 'form', reason: `its answer does not fit the question (${why.slice(0, 300)}).` }
}

/** What an accepted answer says, by the form's labels. */
function AnswerContent({ requestedSchema, content }: { requestedSchema: Record<string, unknown>; content: Record<string, unknown> }) {
  let fields
  try {
    fields = parseFlatForm(requestedSchema)
  } catch {
    return null
  }
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
      {fields
        .filter((field) => content[field.name] !== undefined)
        .map((field) => {
          const value = content[field.name]
          const options = field.kind === 'choice' || field.kind === 'multi-choice' ? field.options : []
          const label = (item: unknown) => options.find((option) => option.value === item)?.label ?? String(item)
          return (
            <div key={field.name} className="contents">
              <dt className="text-zinc-500 dark:text-zinc-400">{field.label}</dt>
              <dd className="text-zinc-900 dark:text-zinc-100">{Array.isArray(value) ? value.map(label).join(', ') : label(value)}</dd>
            </div>
          )
        })}
    </dl>
  )
}

function timeout(ms: number, signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true })
  })
}

/** A reason as the end of "could not be used: …", with its full stop. */
function sentence(text: string): string {
  const trimmed = text.trim()
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
