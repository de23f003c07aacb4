/** The fixture's data, shared by its tool and its components. */
export interface Colour {
  id: string
  name: string
  hex: string
}

export const COLOURS: Colour[] = [
  { id: 'red', name: 'Poppy red', hex: '#dc2626' },
  { id: 'green', name: 'Fern green', hex: '#16a34a' },
  { id: 'blue', name: 'Harbour blue', hex: '#2563eb' },
]

export interface Size {
  width: number
  height: number
}

export const SIZES: Size[] = [
  { width: 20, height: 30 },
  { width: 40, height: 60 },
]
