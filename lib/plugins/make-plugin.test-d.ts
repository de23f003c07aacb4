import type { Operation } from 'effection'
import { Component, memo } from 'react'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { SeatChoice } from '@/fixtures/book-train/components/SeatChoice'
import { TrainList } from '@/fixtures/book-train/components/TrainList'
import type { bookTrainTool } from '@/fixtures/book-train/tool'
import type { SeatMap, Train } from '@/fixtures/book-train/trains'
import type { FormChoices } from '../protocol/question-form'
import { createMcpTool } from '../tools/create-mcp-tool'
import { question } from '../tools/elicits'
import type { ElicitAnswer } from '../tools/types'
import { makePlugin } from './make-plugin'
import type { ElicitComponentProps, ElicitProps, PluginClientContext, PluginUi, QuestionProps } from './types'

const confirmTool = createMcpTool('confirm_order')
  .elicits({
    confirm: z.object({ ok: z.boolean() }),
    pickSize: { response: z.object({ size: z.enum(['S', 'M', 'L']) }), context: z.object({ sizes: z.array(z.string()) }) },
  })
  .execute(function* () {})

declare function YesNo(props: ElicitComponentProps<boolean> & { question: string; tone?: 'calm' | 'urgent' }): null
declare function SizePicker(props: ElicitProps<typeof confirmTool, 'pickSize'>): React.JSX.Element
declare function Confirm(props: ElicitProps<typeof confirmTool, 'confirm'>): React.JSX.Element | null
declare function Toned(props: ElicitProps<typeof bookTrainTool, 'pickSeat'> & { tone: 'calm' }): null
declare function Old(props: ElicitComponentProps<{ row: number; seat: string }> & { train: Train }): null
declare const respond: ElicitProps<typeof bookTrainTool, 'pickSeat'>['respond']

describe('makePlugin(tool).onElicit with components', () => {
  it('takes a component per key, its props typed from the key by ElicitProps', () => {
    const plugin = makePlugin<typeof bookTrainTool>('book_train').onElicit({ pickTrain: TrainList, pickSeat: SeatChoice }).build()
    expectTypeOf(plugin).toEqualTypeOf<PluginUi<typeof bookTrainTool>>()
    makePlugin<typeof confirmTool>('confirm_order').onElicit({ confirm: Confirm, pickSize: SizePicker })
  })

  it('gives a component the message, the decoded context, the choices, respond, disabled and answered', () => {
    type Props = ElicitProps<typeof bookTrainTool, 'pickSeat'>
    expectTypeOf<Props['message']>().toEqualTypeOf<string>()
    expectTypeOf<Props['context']['seatMap']>().toEqualTypeOf<SeatMap>()
    expectTypeOf<Props['context']['train']>().toEqualTypeOf<Train>()
    expectTypeOf<Props['choices']>().toEqualTypeOf<FormChoices>()
    expectTypeOf<Props['disabled']>().toEqualTypeOf<boolean>()
    expectTypeOf<Props['respond']>().parameter(0).toEqualTypeOf<ElicitAnswer<{ row: number; seat: string }>>()
    expectTypeOf<Props['answered']>().toEqualTypeOf<ElicitAnswer<{ row: number; seat: string }> | undefined>()
    expectTypeOf<Props['defaults']>().toEqualTypeOf<Partial<{ row: number; seat: string }> | undefined>()
    expectTypeOf<ElicitProps<typeof confirmTool, 'confirm'>['context']>().toEqualTypeOf<Record<string, unknown>>()
    // @ts-expect-error the tool declares no 'pickColour'
    expectTypeOf<ElicitProps<typeof confirmTool, 'pickColour'>>()
  })

  it('lets a component answer only with the key’s answer', () => {
    respond({ action: 'accept', content: { row: 12, seat: 'C' } })
    respond({ action: 'cancel' })
    // @ts-expect-error a seat answer has row and seat, not seatId
    respond({ action: 'accept', content: { seatId: '12C' } })
    // @ts-expect-error an accept carries its content
    respond({ action: 'accept' })
    // @ts-expect-error 'maybe' is not an action
    respond({ action: 'maybe' })
  })

  it('mixes components and generator handlers, each typed for its key', () => {
    makePlugin<typeof bookTrainTool>('book_train').onElicit({
      pickTrain: TrainList,
      *pickSeat(request, ctx) {
        expectTypeOf(request.context.seatMap).toEqualTypeOf<SeatMap>()
        const ok = yield* ctx.render(YesNo, { question: `Any seat on ${request.context.train.number}?` })
        return ok ? { action: 'accept', content: { row: request.context.seatMap.firstRow, seat: 'A' } } : { action: 'cancel' }
      },
    })
  })

  it('rejects a component made for another key, or one that needs props a question does not give', () => {
    makePlugin<typeof bookTrainTool>('book_train').onElicit({
      // @ts-expect-error SeatChoice answers pickSeat, not pickTrain
      pickTrain: SeatChoice,
      pickSeat: SeatChoice,
    })
    makePlugin<typeof bookTrainTool>('book_train').onElicit({
      pickTrain: TrainList,
      // @ts-expect-error tone is not a prop the chat or a host gives
      pickSeat: Toned,
    })
    makePlugin<typeof bookTrainTool>('book_train').onElicit({
      pickTrain: TrainList,
      // @ts-expect-error the ctx.render props (onRespond, response) are not a question's
      pickSeat: Old,
    })
  })

  it('rejects a component set with a key missing', () => {
    makePlugin<typeof bookTrainTool>('book_train').onElicit(
      // @ts-expect-error pickSeat has no component or handler
      { pickTrain: TrainList },
    )
  })

  it('takes a component that reads fewer props, a memo and a class component', () => {
    const MessageOnly = ({ message }: { message: string }) => message
    const Remembered = memo(SeatChoice)
    class Sizes extends Component<QuestionProps<{ sizes: string[] }, { size: 'S' | 'M' | 'L' }>> {
      override render() {
        return null
      }
    }
    makePlugin<typeof bookTrainTool>('book_train').onElicit({ pickTrain: MessageOnly, pickSeat: Remembered })
    makePlugin<typeof confirmTool>('confirm_order').onElicit({ confirm: MessageOnly, pickSize: Sizes })
  })
})

describe('a question’s defaults', () => {
  it('are computed from its typed context and typed as part of its answer', () => {
    question({
      response: z.object({ text: z.string(), urgent: z.boolean() }),
      context: z.object({ attendee: z.string() }),
      defaults: (context) => {
        expectTypeOf(context).toEqualTypeOf<{ attendee: string }>()
        return { text: `Hi ${context.attendee}` }
      },
    })
    question({
      response: z.object({ text: z.string() }),
      context: z.object({ attendee: z.string() }),
      // @ts-expect-error the answer's text is a string
      defaults: () => ({ text: 5 }),
    })
  })
})

describe('makePlugin(tool).onElicit with generator handlers', () => {
  it('accepts one handler per declared key and builds a plugin typed by the tool', () => {
    const plugin = makePlugin<typeof confirmTool>('confirm_order')
      .onElicit({
        *confirm(_request, _ctx) {
          return { action: 'accept', content: { ok: true } }
        },
        *pickSize(_request, _ctx) {
          return { action: 'accept', content: { size: 'M' } }
        },
      })
      .build()
    expectTypeOf(plugin).toEqualTypeOf<PluginUi<typeof confirmTool>>()
    expectTypeOf(plugin.toolName).toEqualTypeOf<'confirm_order'>()
  })

  it('takes the tool by type only, and its name must be the tool’s', () => {
    // @ts-expect-error the tool is called confirm_order
    makePlugin<typeof confirmTool>('confirm')
    // @ts-expect-error a tool's value is not what the browser half takes
    makePlugin(confirmTool)
  })

  it('rejects a handler set with a key missing', () => {
    makePlugin<typeof confirmTool>('confirm_order').onElicit(
      // @ts-expect-error pickSize has no handler
      {
        *confirm(_request, _ctx) {
          return { action: 'decline' }
        },
      },
    )
  })

  it('rejects a handler for a key the tool does not declare', () => {
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      *confirm(_request, _ctx) {
        return { action: 'decline' }
      },
      *pickSize(_request, _ctx) {
        return { action: 'decline' }
      },
      // @ts-expect-error the tool declares no 'pickColour'
      *pickColour(_request, _ctx) {
        return { action: 'decline' }
      },
    })
  })

  it('gives each handler a request with its key and its typed context, under `context` only', () => {
    makePlugin<typeof bookTrainTool>('book_train').onElicit({
      *pickTrain(request, ctx) {
        expectTypeOf(request.key).toEqualTypeOf<'pickTrain'>()
        expectTypeOf(request.context.trains).toEqualTypeOf<Train[]>()
        expectTypeOf(request.context.from).toEqualTypeOf<string>()
        expectTypeOf(request.context.to).toEqualTypeOf<string>()
        // @ts-expect-error the context is not spread on the request
        void request.trains
        expectTypeOf(request.message).toEqualTypeOf<string>()
        expectTypeOf(request.elicitId).toEqualTypeOf<string>()
        expectTypeOf(request.choices).toEqualTypeOf<FormChoices | undefined>()
        expectTypeOf(ctx).toEqualTypeOf<PluginClientContext>()
        // @ts-expect-error the seat map belongs to pickSeat's context
        void request.context.seatMap
        return { action: 'decline' }
      },
      *pickSeat(request, _ctx) {
        expectTypeOf(request.key).toEqualTypeOf<'pickSeat'>()
        expectTypeOf(request.context.seatMap).toEqualTypeOf<SeatMap>()
        expectTypeOf(request.context.train).toEqualTypeOf<Train>()
        return { action: 'cancel' }
      },
    })
  })

  it('gives a plain-schema key a free-form context', () => {
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      *confirm(request, _ctx) {
        expectTypeOf(request.context).toEqualTypeOf<Record<string, unknown>>()
        expectTypeOf(request.context.anything).toEqualTypeOf<unknown>()
        return { action: 'decline' }
      },
      *pickSize(request, _ctx) {
        expectTypeOf(request.context.sizes).toEqualTypeOf<string[]>()
        return { action: 'decline' }
      },
    })
  })

  it('keeps a context key named as a field of the request: `message` is the question\'s, the context\'s is under `context`', () => {
    const noticeTool = createMcpTool('notice')
      .elicits({ ack: { response: z.object({ ok: z.boolean() }), context: z.object({ message: z.number(), key: z.boolean() }) } })
      .execute(function* () {})
    makePlugin<typeof noticeTool>('notice').onElicit({
      *ack(request, _ctx) {
        expectTypeOf(request.message).toEqualTypeOf<string>()
        expectTypeOf(request.key).toEqualTypeOf<'ack'>()
        expectTypeOf(request.context.message).toEqualTypeOf<number>()
        expectTypeOf(request.context.key).toEqualTypeOf<boolean>()
        return { action: 'decline' }
      },
    })
  })

  it('types each handler’s result by the key’s response schema', () => {
    makePlugin<typeof bookTrainTool>('book_train').onElicit({
      *pickTrain(_request, _ctx): Operation<ElicitAnswer<{ trainId: string }>> {
        return { action: 'decline' }
      },
      *pickSeat(_request, _ctx) {
        return { action: 'accept', content: { row: 12, seat: 'C' } }
      },
    })
  })

  it('rejects a handler that answers with content of the wrong shape', () => {
    makePlugin<typeof bookTrainTool>('book_train').onElicit({
      // @ts-expect-error trainId must be a string
      *pickTrain(_request, _ctx) {
        return { action: 'accept', content: { trainId: 42 } }
      },
      // @ts-expect-error the seat response has row and seat, not seatId
      *pickSeat(_request, _ctx) {
        return { action: 'accept', content: { seatId: '12C' } }
      },
    })
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      // @ts-expect-error 'maybe' is not an action
      *confirm(_request, _ctx) {
        return { action: 'maybe' }
      },
      // @ts-expect-error 'XL' is not one of the sizes
      *pickSize(_request, _ctx) {
        return { action: 'accept', content: { size: 'XL' } }
      },
    })
  })

  it('never takes a generator for a component, so a handler that names no parameters is still checked', () => {
    makePlugin<typeof bookTrainTool>('book_train').onElicit({
      // @ts-expect-error trainId must be a string (and a handler names both its parameters, to be typed)
      *pickTrain() {
        return { action: 'accept', content: { trainId: 42 } }
      },
      pickSeat: SeatChoice,
    })
  })
})

describe('ctx.render', () => {
  it('resumes with the type the component passes to onRespond', () => {
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      *confirm(request, ctx) {
        const ok = yield* ctx.render(YesNo, { question: request.message })
        expectTypeOf(ok).toEqualTypeOf<boolean>()
        return { action: 'accept', content: { ok } }
      },
      pickSize: SizePicker,
    })
  })

  it('requires the component’s own props, and only those', () => {
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      *confirm(_request, ctx) {
        // @ts-expect-error question is missing
        yield* ctx.render(YesNo, {})
        // @ts-expect-error question must be a string
        yield* ctx.render(YesNo, { question: 42 })
        // @ts-expect-error tone is 'calm' or 'urgent'
        yield* ctx.render(YesNo, { question: 'Sure?', tone: 'loud' })
        // @ts-expect-error the chat passes onRespond itself
        yield* ctx.render(YesNo, { question: 'Sure?', onRespond: () => {} })
        yield* ctx.render(YesNo, { question: 'Sure?' })
        yield* ctx.render(YesNo, { question: 'Sure?', tone: 'urgent' })
        return { action: 'decline' }
      },
      pickSize: SizePicker,
    })
  })

  it('refuses a component that takes no onRespond', () => {
    const Label = (props: { text: string }) => null
    void Label
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      *confirm(_request, ctx) {
        // @ts-expect-error a component rendered for an answer must take onRespond
        yield* ctx.render(Label, { text: 'hi' })
        // @ts-expect-error a question's component answers with respond: it is registered, not rendered
        yield* ctx.render(Confirm, { message: 'Sure?' })
        return { action: 'decline' }
      },
      pickSize: SizePicker,
    })
  })
})
