'use client'

import { useRef, useState, type KeyboardEvent } from 'react'
import type { ElicitProps } from '@/lib/plugins'
import type { bookFlightTool } from '../tool'
import { PrimaryButton, QuietButton } from '@/components/kit'

export type SeatPickerProps = ElicitProps<typeof bookFlightTool, 'pickSeat'>

interface Seat {
  row: number
  letter: string
}

const seatId = ({ row, letter }: Seat) => `${row}${letter}`

/** Choose a seat on a cabin map (arrow keys move between free seats), then confirm or cancel. */
export function SeatPicker({ message, context: { flight, seatMap }, respond, disabled, answered }: SeatPickerProps) {
  const confirmed: Seat | undefined = answered?.action === 'accept' ? { row: answered.content.row, letter: answered.content.seat } : undefined
  const cancelled = answered?.action === 'cancel'
  const [picked, setPicked] = useState<Seat>()
  const selected = confirmed ?? (disabled ? undefined : picked)

  const rows = Array.from({ length: Math.max(0, seatMap.lastRow - seatMap.firstRow + 1) }, (_, index) => seatMap.firstRow + index)
  const taken = new Set(seatMap.taken)
  const isFree = (seat: Seat) => !taken.has(seatId(seat))
  const firstFree = rows.flatMap((row) => seatMap.letters.map((letter) => ({ row, letter }))).find(isFree)

  const [focused, setFocused] = useState<Seat>()
  const tabStop = [focused, selected, firstFree].find((seat) => seat && isFree(seat))
  const buttons = useRef(new Map<string, HTMLButtonElement>())

  function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
    const from = focused ?? tabStop
    if (!from) return
    const column = seatMap.letters.indexOf(from.letter)
    const steps: Record<string, [number, number]> = {
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
    }
    let target: Seat | undefined
    if (event.key in steps) {
      const [rowStep, columnStep] = steps[event.key]
      let row = from.row + rowStep
      let index = column + columnStep
      while (row >= seatMap.firstRow && row <= seatMap.lastRow && index >= 0 && index < seatMap.letters.length) {
        const candidate = { row, letter: seatMap.letters[index] }
        if (isFree(candidate)) {
          target = candidate
          break
        }
        row += rowStep
        index += columnStep
      }
    } else if (event.key === 'Home' || event.key === 'End') {
      const inRow = seatMap.letters.map((letter) => ({ row: from.row, letter })).filter(isFree)
      target = event.key === 'Home' ? inRow[0] : inRow.at(-1)
    } else {
      return
    }
    event.preventDefault()
    if (!target) return
    setFocused(target)
    buttons.current.get(seatId(target))?.focus()
  }

  return (
    <section
      aria-label={`Seats on ${flight.flightNumber}`}
      className="rounded-xl border border-zinc-200 bg-white p-3 dark:border-zinc-700/70 dark:bg-zinc-900 sm:p-4"
    >
      <p className="text-sm font-medium text-zinc-900 dark:text-zinc-50">{message}</p>
      <p className="mt-0.5 text-xs text-zinc-500 dark:text-zinc-400">
        {flight.airline} {flight.flightNumber} · {flight.from} → {flight.to} · {flight.departure}
      </p>

      <Legend />

      <div className="mt-3 flex justify-center">
        <div
          role="grid"
          aria-label={`Seat map for ${flight.flightNumber}`}
          aria-readonly={disabled || undefined}
          onKeyDown={moveFocus}
          className="rounded-t-[2.5rem] border-x border-t border-zinc-200 bg-zinc-50 px-3 pb-3 pt-6 dark:border-zinc-700 dark:bg-zinc-950/50"
        >
          <div role="row" className="mb-1 flex items-center gap-1">
            <span role="columnheader" className="w-6">
              <span className="sr-only">Row</span>
            </span>
            {seatMap.letters.map((letter) => (
              <span
                key={letter}
                role="columnheader"
                className={`w-8 text-center text-xs font-semibold text-zinc-500 dark:text-zinc-400 ${seatMap.aisleAfter.includes(letter) ? 'mr-4' : ''}`}
              >
                {letter}
              </span>
            ))}
          </div>
          {rows.map((row) => (
            <div role="row" key={row} className="flex items-center gap-1 py-0.5">
              <span role="rowheader" className="w-6 text-right text-xs tabular-nums text-zinc-500 dark:text-zinc-400">
                {row}
              </span>
              {seatMap.letters.map((letter) => {
                const seat = { row, letter }
                const id = seatId(seat)
                const isTaken = taken.has(id)
                const isSelected = selected !== undefined && seatId(selected) === id
                const look = seatLook({ isSelected, isTaken })
                const aisle = seatMap.aisleAfter.includes(letter) ? 'mr-4' : ''
                const mark = isTaken ? <TakenMark /> : isSelected ? <CheckMark /> : <span aria-hidden="true">{letter}</span>
                // Answered or stopped: the map as it was, to look at — nothing left to press.
                if (disabled) {
                  return (
                    <span key={letter} role="gridcell" aria-label={`Seat ${id}, ${isSelected ? 'yours' : isTaken ? 'taken' : 'free'}`} className={aisle}>
                      <span className={`${SEAT} ${look}`}>{mark}</span>
                    </span>
                  )
                }
                return (
                  <span key={letter} role="gridcell" className={aisle}>
                    <button
                      type="button"
                      ref={(element) => {
                        if (element) buttons.current.set(id, element)
                        else buttons.current.delete(id)
                      }}
                      aria-label={`Seat ${id}`}
                      aria-pressed={isSelected}
                      disabled={isTaken}
                      tabIndex={tabStop && seatId(tabStop) === id ? 0 : -1}
                      title={isTaken ? `Seat ${id} is taken` : `Seat ${id}`}
                      onFocus={() => setFocused(seat)}
                      onClick={() => setPicked(seat)}
                      className={`${SEAT} ${look} transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-1 dark:focus-visible:ring-offset-zinc-900 ${
                        isTaken ? 'cursor-not-allowed' : 'hover:border-sky-500 hover:bg-sky-50 dark:hover:bg-sky-500/10'
                      }`}
                    >
                      {mark}
                    </button>
                  </span>
                )
              })}
            </div>
          ))}
        </div>
      </div>

      <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-zinc-700 dark:text-zinc-300" aria-live="polite">
          {cancelled ? (
            <span className="font-medium text-zinc-600 dark:text-zinc-400">Cancelled</span>
          ) : confirmed ? (
            <>
              Seat <strong className="font-semibold">{seatId(confirmed)}</strong> confirmed
            </>
          ) : selected ? (
            <>
              Selected: <strong className="font-semibold">{seatId(selected)}</strong>
            </>
          ) : (
            <span className="text-zinc-500 dark:text-zinc-400">No seat selected</span>
          )}
        </p>
        {disabled ? null : (
          <div className="flex gap-2">
            <QuietButton onClick={() => respond({ action: 'cancel' })}>Cancel</QuietButton>
            <PrimaryButton disabled={!selected} onClick={() => selected && respond({ action: 'accept', content: { row: selected.row, seat: selected.letter } })}>
              Confirm
            </PrimaryButton>
          </div>
        )}
      </div>
    </section>
  )
}

const SEAT = 'grid h-8 w-8 place-items-center rounded-t-lg rounded-b-md border text-[11px] font-semibold'

/** How a seat looks: yours, taken, or free (its letter AA on its background, light and dark). */
function seatLook({ isSelected, isTaken }: { isSelected: boolean; isTaken: boolean }): string {
  if (isSelected) return 'border-sky-800 bg-sky-700 text-white dark:border-sky-300 dark:bg-sky-700'
  if (isTaken) return 'border-zinc-300 bg-zinc-200 text-zinc-500 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-500'
  return 'border-zinc-400 bg-white text-zinc-700 dark:border-zinc-500 dark:bg-zinc-900 dark:text-zinc-300'
}

function Legend() {
  const swatch = 'inline-block h-3 w-3 rounded-sm border'
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400" aria-label="Legend">
      <li className="flex items-center gap-1.5">
        <span className={`${swatch} border-zinc-400 bg-white dark:border-zinc-500 dark:bg-zinc-900`} aria-hidden="true" /> Free
      </li>
      <li className="flex items-center gap-1.5">
        <span className={`${swatch} border-sky-700 bg-sky-600 dark:bg-sky-500`} aria-hidden="true" /> Selected
      </li>
      <li className="flex items-center gap-1.5">
        <span className={`${swatch} border-zinc-300 bg-zinc-200 dark:border-zinc-700 dark:bg-zinc-800`} aria-hidden="true" /> Taken
      </li>
    </ul>
  )
}

function TakenMark() {
  return (
    <svg viewBox="0 0 12 12" className="h-3 w-3" aria-hidden="true">
      <path d="M3 3l6 6M9 3l-6 6" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  )
}

function CheckMark() {
  return (
    <svg viewBox="0 0 12 12" className="h-3.5 w-3.5" aria-hidden="true">
      <path d="M2.5 6.5l2.2 2.2L9.5 3.8" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}
