import type { ElicitComponentProps } from '@/lib/plugins'
import type { Flight, SeatMap } from '../flights'

export type SeatChoice = { action: 'accept'; row: number; seat: string } | { action: 'cancel' }

export interface SeatPickerProps extends ElicitComponentProps<SeatChoice> {
  message: string
  flight: Flight
  seatMap: SeatMap
}

// Placeholder so the tree type-checks; the UI work replaces it.
export function SeatPicker(props: SeatPickerProps) {
  return null
}
