import { createElement, type ComponentType } from 'react'
import type { ChoiceAnswers, FormChoices, FormSchema } from '../protocol/question-form'
import type { ElicitAnswer } from '../protocol/elicit-answer'
import type { RenderedComponent } from './plugin-executor'
import type { ElicitComponentProps, PluginClientRegistration, QuestionProps } from './types'

type AnyQuestionComponent = ComponentType<QuestionProps<never, never>>
type Handler = PluginClientRegistration['handlers'][string]

interface QuestionRenderProps extends ElicitComponentProps<ElicitAnswer> {
  Component: AnyQuestionComponent
  message: string
  context: Record<string, unknown>
  choices: FormChoices
  defaults: Record<string, unknown>
  /** For the form generated for a question no component answers (`formQuestionHandler`). */
  form?: FormSchema
  choiceAnswers?: ChoiceAnswers
}

/** The props of the component that shows a question as the form generated from it: a question's, with its form. */
export interface FormQuestionProps extends QuestionProps<Record<string, unknown>, Record<string, unknown>> {
  /** The question's form, its `requestedSchema` (absent in a chat kept before it was sent). */
  form?: FormSchema
  /** What the values of its choice fields stand for in the answer (`{}` when none do). */
  choiceAnswers: ChoiceAnswers
}

/**
 * What `ctx.render` shows for a question answered by a component: the chat's answer wiring
 * (`onRespond`, `response`) as the component's `respond` and `answered`. One component for
 * every such question, so React keeps a rendered question's state across the chat's updates.
 */
function Question({ Component, onRespond, disabled, response, ...question }: QuestionRenderProps) {
  const Answering = Component as ComponentType<QuestionProps<unknown, unknown>>
  return createElement(Answering, { ...question, respond: onRespond, disabled, ...(response ? { answered: response } : {}) })
}

/**
 * The handler of a key registered with a component (`.onElicit({ pickSeat: SeatPicker })`): it
 * renders the component with the question — its message, decoded context, choices and defaults — and
 * returns the `ElicitAnswer` the component responds with, as it is. Rendered through `ctx.render`,
 * so that after a reload the component shows its answer again, disabled (the chat keeps that
 * answer once, as the question's result).
 */
export function questionHandler(Component: AnyQuestionComponent): Handler {
  return function* answerWithComponent(request, ctx) {
    const { message, context, choices = {}, defaults = {} } = request
    return yield* ctx.render(Question, { Component, message, context, choices, defaults })
  }
}

/**
 * The handler of a question no component or handler of its plugin answers (or whose tool has no
 * browser half): `Component` shows the form the tool declared for it, and answers with the
 * tool's answer. Rendered as `questionHandler`'s are, so it folds to one line once answered.
 */
export function formQuestionHandler(Component: ComponentType<FormQuestionProps>): Handler {
  return function* answerWithForm(request, ctx) {
    const { message, context, choices = {}, defaults = {}, form, choiceAnswers = {} } = request
    return yield* ctx.render(Question, { Component: Component as unknown as AnyQuestionComponent, message, context, choices, defaults, choiceAnswers, ...(form ? { form } : {}) })
  }
}

/**
 * Whether a render is a question answered by its registered component (`.onElicit({ pickSeat:
 * SeatPicker })`), whose form the chat knows: once answered, the chat folds it to one line said in
 * the form's words. A generator handler's own renders are its author's to show as they like.
 */
export function isQuestionRender(rendered: Pick<RenderedComponent, 'Component'>): boolean {
  return rendered.Component === Question
}
