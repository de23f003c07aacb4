import type { Operation } from 'effection'
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { FlightList, type FlightChoice } from '@/plugins/book-flight/components/FlightList'
import { SeatPicker, type SeatChoice } from '@/plugins/book-flight/components/SeatPicker'
import type { Flight, SeatMap } from '@/plugins/book-flight/flights'
import type { bookFlightTool } from '@/plugins/book-flight/tool'
import { createMcpTool } from '../tools/create-mcp-tool'
import type { ElicitAnswer } from '../tools/types'
import { makePlugin } from './make-plugin'
import type { ElicitComponentProps, PluginClientContext, PluginUi } from './types'

const confirmTool = createMcpTool('confirm_order')
  .elicits({
    confirm: z.object({ ok: z.boolean() }),
    pickSize: { response: z.object({ size: z.enum(['S', 'M', 'L']) }), context: z.object({ sizes: z.array(z.string()) }) },
  })
  .execute(function* () {})

declare function YesNo(props: ElicitComponentProps<boolean> & { question: string; tone?: 'calm' | 'urgent' }): null

describe('makePlugin(tool).onElicit', () => {
  it('accepts one handler per declared key and builds a plugin typed by the tool', () => {
    const plugin = makePlugin<typeof confirmTool>('confirm_order')
      .onElicit({
        *confirm() {
          return { action: 'accept', content: { ok: true } }
        },
        *pickSize() {
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
        *confirm() {
          return { action: 'decline' }
        },
      },
    )
  })

  it('rejects a handler for a key the tool does not declare', () => {
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      *confirm() {
        return { action: 'decline' }
      },
      *pickSize() {
        return { action: 'decline' }
      },
      // @ts-expect-error the tool declares no 'pickColour'
      *pickColour() {
        return { action: 'decline' }
      },
    })
  })

  it('gives each handler a request with its key and its typed context, also spread on the request', () => {
    makePlugin<typeof bookFlightTool>('book_flight').onElicit({
      *pickFlight(request, ctx) {
        expectTypeOf(request.key).toEqualTypeOf<'pickFlight'>()
        expectTypeOf(request.flights).toEqualTypeOf<Flight[]>()
        expectTypeOf(request.from).toEqualTypeOf<string>()
        expectTypeOf(request.context.destination).toEqualTypeOf<string>()
        expectTypeOf(request.message).toEqualTypeOf<string>()
        expectTypeOf(request.seq).toEqualTypeOf<number>()
        expectTypeOf(ctx).toEqualTypeOf<PluginClientContext>()
        // @ts-expect-error the seat map belongs to pickSeat's context
        void request.seatMap
        return { action: 'decline' }
      },
      *pickSeat(request) {
        expectTypeOf(request.key).toEqualTypeOf<'pickSeat'>()
        expectTypeOf(request.seatMap).toEqualTypeOf<SeatMap>()
        expectTypeOf(request.flight).toEqualTypeOf<Flight>()
        return { action: 'cancel' }
      },
    })
  })

  it('gives a plain-schema key a free-form context', () => {
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      *confirm(request) {
        expectTypeOf(request.context).toEqualTypeOf<Record<string, unknown>>()
        expectTypeOf(request.anything).toEqualTypeOf<unknown>()
        return { action: 'decline' }
      },
      *pickSize(request) {
        expectTypeOf(request.sizes).toEqualTypeOf<string[]>()
        return { action: 'decline' }
      },
    })
  })

  it('types each handler’s result by the key’s response schema', () => {
    makePlugin<typeof bookFlightTool>('book_flight').onElicit({
      *pickFlight(): Operation<ElicitAnswer<{ flightId: string }>> {
        return { action: 'decline' }
      },
      *pickSeat() {
        return { action: 'accept', content: { row: 12, seat: 'C' } }
      },
    })
  })

  it('rejects a handler that answers with content of the wrong shape', () => {
    makePlugin<typeof bookFlightTool>('book_flight').onElicit({
      // @ts-expect-error flightId must be a string
      *pickFlight() {
        return { action: 'accept', content: { flightId: 42 } }
      },
      // @ts-expect-error the seat response has row and seat, not seatId
      *pickSeat() {
        return { action: 'accept', content: { seatId: '12C' } }
      },
    })
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      // @ts-expect-error 'maybe' is not an action
      *confirm() {
        return { action: 'maybe' }
      },
      // @ts-expect-error 'XL' is not one of the sizes
      *pickSize() {
        return { action: 'accept', content: { size: 'XL' } }
      },
    })
  })
})

describe('ctx.render', () => {
  it('resumes with the type the component passes to onRespond', () => {
    makePlugin<typeof bookFlightTool>('book_flight').onElicit({
      *pickFlight(request, ctx) {
        const choice = yield* ctx.render(FlightList, {
          message: request.message,
          from: request.from,
          destination: request.destination,
          flights: request.flights,
        })
        expectTypeOf(choice).toEqualTypeOf<FlightChoice>()
        return choice.action === 'accept' ? { action: 'accept', content: { flightId: choice.flightId } } : { action: 'decline' }
      },
      *pickSeat(request, ctx) {
        const choice = yield* ctx.render(SeatPicker, { message: request.message, flight: request.flight, seatMap: request.seatMap })
        expectTypeOf(choice).toEqualTypeOf<SeatChoice>()
        const ok = yield* ctx.render(YesNo, { question: `Seat ${choice.action}?` })
        expectTypeOf(ok).toEqualTypeOf<boolean>()
        return { action: 'cancel' }
      },
    })
  })

  it('requires the component’s own props, and only those', () => {
    makePlugin<typeof bookFlightTool>('book_flight').onElicit({
      *pickFlight(request, ctx) {
        // @ts-expect-error flights is missing
        yield* ctx.render(FlightList, { message: request.message, from: request.from, destination: request.destination })
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
      *pickSeat() {
        return { action: 'cancel' }
      },
    })
  })

  it('refuses a component that takes no onRespond', () => {
    const Label = (props: { text: string }) => null
    void Label
    makePlugin<typeof confirmTool>('confirm_order').onElicit({
      *confirm(_request, ctx) {
        // @ts-expect-error a component rendered for an answer must take onRespond
        yield* ctx.render(Label, { text: 'hi' })
        return { action: 'decline' }
      },
      *pickSize() {
        return { action: 'decline' }
      },
    })
  })
})
