'use client'

import type { ElicitProps } from '@/lib/plugins'
import type { Flight } from '../flights'
import type { bookFlightTool } from '../tool'
import { AnswerBar, ChoiceList, promptOf, QuestionPanel, QuietButton } from '@/components/kit'
import { AirplaneIcon, formatDuration, formatPrice } from './format'

export type FlightListProps = ElicitProps<typeof bookFlightTool, 'pickFlight'>

const AIRLINE_COLOURS = [
  'bg-sky-100 text-sky-800 dark:bg-sky-500/15 dark:text-sky-300',
  'bg-violet-100 text-violet-800 dark:bg-violet-500/15 dark:text-violet-300',
  'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300',
  'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300',
]

/** A steady colour per airline code, so an airline looks the same in every search. */
function airlineColour(flightNumber: string): string {
  const code = flightNumber.split(' ')[0] ?? ''
  let sum = 0
  for (const [index, char] of [...code].entries()) sum += char.charCodeAt(0) * (index + 1)
  return AIRLINE_COLOURS[sum % AIRLINE_COLOURS.length]
}

/** Pick one of the flights found, or decline. Each flight's button is named by what it shows. */
export function FlightList({ message, context: { from, destination, flights }, respond, disabled, answered }: FlightListProps) {
  const chosenId = answered?.action === 'accept' ? answered.content.flightId : undefined
  const declined = answered?.action === 'decline'

  return (
    <QuestionPanel
      label={`Flights from ${from} to ${destination}`}
      icon={<AirplaneIcon data-testid="airplane-icon" aria-hidden="true" className="h-5 w-5" />}
      title={
        <>
          {from} <span aria-hidden="true">→</span>
          <span className="sr-only">to</span> {destination}
        </>
      }
      prompt={promptOf(message)}
    >
      <ChoiceList
        choices={flights}
        keyOf={(flight) => flight.id}
        chosen={chosenId}
        disabled={disabled}
        onChoose={(flight) => respond({ action: 'accept', content: { flightId: flight.id } })}
        render={(flight, { chosen }) => <FlightRow flight={flight} chosen={chosen} />}
      />
      <AnswerBar status={declined ? 'Declined' : chosenId ? 'Flight chosen' : undefined}>
        {disabled ? null : <QuietButton onClick={() => respond({ action: 'decline' })}>Decline</QuietButton>}
      </AnswerBar>
    </QuestionPanel>
  )
}

/** A flight as it reads in its button: airline and number, the times, the duration, the price. */
function FlightRow({ flight, chosen }: { flight: Flight; chosen: boolean }) {
  return (
    <span className="grid grid-cols-[auto_1fr_auto] items-center gap-3">
      <span aria-hidden="true" className={`grid h-9 w-9 place-items-center rounded-md text-xs font-bold ${airlineColour(flight.flightNumber)}`}>
        {flight.flightNumber.split(' ')[0]}
      </span>
      <span className="min-w-0">
        <span className="block truncate text-sm font-medium text-zinc-900 dark:text-zinc-100">
          {flight.airline} <span className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{flight.flightNumber}</span>
        </span>{' '}
        <span className="block text-sm tabular-nums text-zinc-700 dark:text-zinc-300">
          {flight.departure} <span aria-hidden="true">→</span>
          <span className="sr-only">to</span> {flight.arrival}{' '}
          <span className="ml-2 text-xs text-zinc-600 dark:text-zinc-400">{formatDuration(flight.durationMinutes)}</span>
        </span>
      </span>{' '}
      <span className="flex flex-col items-end gap-1">
        <span className="text-base font-semibold tabular-nums text-zinc-900 dark:text-zinc-50">{formatPrice(flight.price)}</span>
        {chosen ? (
          <span className="rounded-full bg-sky-700 px-2 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-white">Selected</span>
        ) : null}
      </span>
    </span>
  )
}
