/** How the user answered an elicitation, as it crosses the wire (no exchange yet). */
export type ElicitAnswer<TResponse> =
  | { action: 'accept'; content: TResponse }
  | { action: 'decline' }
  | { action: 'cancel' }
