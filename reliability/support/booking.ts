import { confirmedBooking, describeTurn, flightAnswer, seatAnswer } from '../../plugins/book-flight/e2e/booking-answers'
import { createChatApi, type ChatApi } from '../../e2e/support/chat-api'
import { addressOf } from './measure'

/** A browser of its own (cookie, conversation) behind the trusted proxy, from its own address. */
export function browser({ baseURL, index }: { baseURL: string; index: number }): ChatApi {
  return createChatApi({ baseURL, headers: { 'x-forwarded-for': addressOf(index) } })
}

/** The same browser again (after a reload): same cookie, same conversation, same address. */
export function reloaded(chat: ChatApi, index: number): ChatApi {
  const again = browser({ baseURL: chat.baseURL, index })
  again.cookie = chat.cookie
  again.messages = chat.messages
  return again
}

/** A whole booking, three requests; throws with what the server said when any step is not as expected. */
export async function bookOnce(chat: ChatApi): Promise<string> {
  const start = await chat.startBooking()
  if (start.status !== 200 || start.elicit?.key !== 'pickFlight') throw new Error(`start: ${describeTurn(start)}`)
  const seatQuestion = await chat.answer({ event: start.elicit, content: flightAnswer(start.elicit).content })
  if (seatQuestion.status !== 200 || seatQuestion.elicit?.key !== 'pickSeat') throw new Error(`flight: ${describeTurn(seatQuestion)}`)
  const done = await chat.answer({ event: seatQuestion.elicit, content: seatAnswer(seatQuestion.elicit).content })
  return confirmedBooking(done).ticketNumber
}
