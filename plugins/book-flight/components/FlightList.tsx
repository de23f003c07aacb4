import type { ElicitComponentProps } from '@/lib/plugins'
import type { Flight } from '../flights'

export type FlightChoice = { action: 'accept'; flightId: string } | { action: 'decline' }

export interface FlightListProps extends ElicitComponentProps<FlightChoice> {
  message: string
  from: string
  destination: string
  flights: Flight[]
}

// Placeholder so the tree type-checks; the UI work replaces it.
export function FlightList(props: FlightListProps) {
  return null
}
