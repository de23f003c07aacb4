'use client'

import type { ResultViewProps } from '@/lib/plugins'
import type { BookFlightResult } from '../tool'
import { AirplaneIcon, formatDuration, formatPrice } from './format'

/** The book_flight result: a ticket once confirmed, or what was not booked. */
export function BookingConfirmation({ result }: ResultViewProps<BookFlightResult>) {
  if (result?.status === 'cancelled') {
    return (
      <section aria-label="Booking not made" className="rounded-xl border border-zinc-200 bg-zinc-50 p-3 text-sm dark:border-zinc-700 dark:bg-zinc-900/60">
        <p className="font-semibold text-zinc-800 dark:text-zinc-100">Nothing was booked</p>
        <p className="mt-0.5 text-zinc-600 dark:text-zinc-400">
          {result.step === 'flight' ? 'No flight was chosen.' : 'Seat selection was cancelled, so the flight was not booked.'}
        </p>
      </section>
    )
  }
  if (result?.status !== 'confirmed') throw new Error('Unexpected book_flight result')
  const { ticketNumber, flight, seat, price, tip } = result

  return (
    <section
      aria-label="Booking confirmation"
      className="overflow-hidden rounded-xl border border-emerald-200 bg-white dark:border-emerald-500/30 dark:bg-zinc-900"
    >
      <header className="flex items-center justify-between gap-3 bg-emerald-50 px-3 py-2.5 dark:bg-emerald-500/10 sm:px-4">
        <div className="flex items-center gap-2">
          <span className="grid h-7 w-7 place-items-center rounded-full bg-emerald-600 text-white dark:bg-emerald-500">
            <AirplaneIcon aria-hidden="true" className="h-4 w-4" />
          </span>
          <h3 className="text-sm font-semibold text-emerald-900 dark:text-emerald-200">Booking confirmed</h3>
        </div>
        <span className="font-mono text-sm font-semibold tracking-wide text-emerald-900 dark:text-emerald-200">{ticketNumber}</span>
      </header>

      <div className="grid grid-cols-[1fr_auto_1fr] items-center gap-2 px-3 pt-3 sm:px-4">
        <div>
          <p className="text-xl font-bold tracking-tight text-zinc-900 dark:text-zinc-50">{flight.from}</p>
          <p className="text-xs tabular-nums text-zinc-500 dark:text-zinc-400">{flight.departure}</p>
        </div>
        <div className="flex flex-col items-center text-zinc-500 dark:text-zinc-400">
          <AirplaneIcon aria-hidden="true" className="h-4 w-4 rotate-90" />
          <span className="text-[11px]">{formatDuration(flight.durationMinutes)}</span>
        </div>
        <div className="text-right">
          <p className="text-xl font-bold tracking-tight text-zinc-900 dark:text-zinc-50">{flight.to}</p>
          <p className="text-xs tabular-nums text-zinc-500 dark:text-zinc-400">{flight.arrival}</p>
        </div>
      </div>

      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 px-3 py-3 text-sm sm:grid-cols-4 sm:px-4">
        <Field label="Ticket" value={ticketNumber} mono />
        <Field label="Flight" value={flight.flightNumber} detail={flight.airline} />
        <Field label="Seat" value={seat} />
        <Field label="Price" value={formatPrice(price)} />
      </dl>

      {tip ? (
        <p className="border-t border-dashed border-zinc-200 px-3 py-2.5 text-sm text-zinc-700 dark:border-zinc-700 dark:text-zinc-300 sm:px-4">
          <span className="font-semibold text-zinc-900 dark:text-zinc-100">Travel tip: </span>
          {tip}
        </p>
      ) : null}
    </section>
  )
}

function Field({ label, value, detail, mono = false }: { label: string; value: string; detail?: string; mono?: boolean }) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{label}</dt>
      <dd className={`break-words font-semibold text-zinc-900 dark:text-zinc-100 ${mono ? 'font-mono' : ''}`}>{value}</dd>
      {detail ? <dd className="break-words text-xs text-zinc-500 dark:text-zinc-400">{detail}</dd> : null}
    </div>
  )
}
