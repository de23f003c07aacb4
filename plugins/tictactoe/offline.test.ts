import type { LanguageModelV3Message } from '@ai-sdk/provider'
import { generateText } from 'ai'
import { describe, expect, it } from 'vitest'
import { createOfflineModel } from '@/lib/models'
import { offlineReplyTo, offlineSummaryOf } from '@/lib/models/testing/offline-replies'
import type { Board } from './game'
import { asksToPlayTicTacToe, chooseMove, commentOnGame, isGameResult, planTicTacToeMove, readBoard, ticTacToeOffline } from './offline'

const SYSTEM = 'You are playing tic-tac-toe. You play O; the user plays X.'
const skills = [ticTacToeOffline]

/** "X.O|.X.|..." → the text rows a tool shows the model. */
function boardText(picture: string): string {
  const cells = picture.replaceAll('|', '').split('')
  return [0, 1, 2].map((row) => [0, 1, 2].map((column) => (cells[row * 3 + column] === '.' ? String(row * 3 + column + 1) : cells[row * 3 + column])).join(' | ')).join('\n---------\n')
}

function cells(picture: string): Board {
  return picture
    .replaceAll('|', '')
    .split('')
    .map((cell) => (cell === 'X' || cell === 'O' ? cell : null)) as Board
}

function sampling(picture: string, { system = SYSTEM }: { system?: string } = {}) {
  return { system, text: `The board:\n\n${boardText(picture)}\n\nReply with the number of the cell you take.`, prompt: [] }
}

describe('reading the board', () => {
  it('reads the rows of the last board in the text', () => {
    expect(readBoard('X | 2 | O\n---------\n4 | X | 6\n---------\n7 | 8 | 9')).toEqual(cells('X.O|.X.|...'))
    expect(readBoard(`Before:\n${boardText('...|...|...')}\nNow:\n${boardText('X..|...|...')}`)).toEqual(cells('X..|...|...'))
  })

  it('refuses text without a board, or with numbers out of place', () => {
    expect(readBoard('Your move!')).toBeUndefined()
    expect(readBoard('X | 2 | O\n4 | 5 | 6')).toBeUndefined()
    expect(readBoard('X | 3 | O\n4 | 5 | 6\n7 | 8 | 9')).toBeUndefined()
  })
})

describe('choosing a move', () => {
  it.each([
    ['takes a win before blocking', 'XX.|OO.|X..', 'O', 6],
    ['blocks the user', 'XX.|.O.|...', 'O', 3],
    ['blocks a column', 'XO.|X..|...', 'O', 7],
    ['takes the centre', 'X..|...|...', 'O', 5],
    ['takes a corner when the centre is gone', '...|.X.|...', 'O', 1],
    ['takes a side when the centre and corners are gone', 'XOX|.X.|OXO', 'O', 4],
  ])('%s', (_name, picture, mark, cell) => {
    expect(chooseMove(cells(picture), mark as 'X' | 'O')).toBe(cell)
  })

  it('answers a tic-tac-toe sampling call with a legal cell number', () => {
    expect(planTicTacToeMove(sampling('X..|...|...'))).toBe('5')
    expect(planTicTacToeMove(sampling('XX.|.O.|...'))).toBe('3')
  })

  it('works out its mark from the counts when the prompt does not say', () => {
    expect(planTicTacToeMove(sampling('OO.|XX.|X..', { system: 'Play tic-tac-toe.' }))).toBe('3')
    expect(planTicTacToeMove(sampling('XO.|...|...', { system: 'Play tic-tac-toe.' }))).toBe('5')
  })

  it('ignores sampling calls that are not about tic-tac-toe, or show no board', () => {
    expect(planTicTacToeMove(sampling('X..|...|...', { system: 'Give travel tips.' }))).toBeUndefined()
    expect(planTicTacToeMove({ system: SYSTEM, text: 'Hi', prompt: [] })).toBeUndefined()
    expect(planTicTacToeMove(sampling('XOX|XOO|OXX'))).toBeUndefined()
  })

  it('plays through the whole offline model when its tool samples, with tool-call and tool-result parts in the prompt', async () => {
    const { text } = await generateText({
      model: createOfflineModel({ delayMs: 0, skills }),
      providerOptions: { offline: { toolName: 'tictactoe' } },
      system: SYSTEM,
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'elicit_a_1', toolName: 'pickMove', input: { board: boardText('...|...|...') } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'elicit_a_1', toolName: 'pickMove', output: { type: 'text', value: '{"cell":1}' } }] },
        { role: 'assistant', content: 'Cell 5' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'elicit_a_2', toolName: 'pickMove', input: { board: boardText('X..|.O.|...') } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'elicit_a_2', toolName: 'pickMove', output: { type: 'text', value: '{"cell":2}' } }] },
        { role: 'user', content: `${boardText('XX.|.O.|...')}\n\nReply with the number of the cell you take.` },
      ],
    })
    expect(text).toBe('3')
  })
})

describe('starting a game', () => {
  it.each(["Let's play tic-tac-toe", 'play tictactoe', 'Tic Tac Toe!', 'Can we play tic-tac-toe?', 'Fancy a game of noughts and crosses?'])(
    'hears %j as a request to play',
    (text) => {
      expect(asksToPlayTicTacToe(text)).toBe(true)
    },
  )

  it('takes "another game" as a request only after a game', () => {
    expect(asksToPlayTicTacToe('Another game?')).toBe(false)
    expect(asksToPlayTicTacToe('Another game?', { gamePlayed: true })).toBe(true)
    expect(asksToPlayTicTacToe('rematch!', { gamePlayed: true })).toBe(true)
    expect(asksToPlayTicTacToe('What are the rules of tic-tac-toe?')).toBe(false)
    expect(asksToPlayTicTacToe('Book a flight from NYC to LAX', { gamePlayed: true })).toBe(false)
  })

  it('calls the tictactoe tool when it is offered', () => {
    const reply = offlineReplyTo({ skills, text: "Let's play tic-tac-toe" })
    expect(reply.toolCalls).toEqual([{ toolName: 'tictactoe', input: '{}' }])
    expect(reply.text).toMatch(/^Let's play! You're X/)
  })

  it('says the game is not available when the tool is not offered or tools are off', () => {
    expect(offlineReplyTo({ skills, text: 'play tictactoe', tools: ['book_flight'] })).toEqual({ text: expect.stringContaining("isn't available"), toolCalls: [] })
    expect(offlineReplyTo({ skills, text: 'play tictactoe', toolsOff: true }).toolCalls).toEqual([])
  })

  it('starts another game after a finished one', () => {
    const before: LanguageModelV3Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'play tictactoe' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_1', toolName: 'tictactoe', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'tictactoe', output: { type: 'json', value: { outcome: 'draw', board: [] } } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'A draw' }] },
    ]
    const reply = offlineReplyTo({ skills, text: 'Another game?', before })
    expect(reply.toolCalls).toEqual([{ toolName: 'tictactoe', input: '{}' }])
  })
})

describe('commenting on the game', () => {
  const board = cells('XXX|OO.|...')

  it('recognises a game result and nothing else', () => {
    expect(isGameResult({ outcome: 'win', board, winningLine: [1, 2, 3], moves: [] })).toBe(true)
    expect(isGameResult({ outcome: 'maybe', board })).toBe(false)
    expect(isGameResult({ status: 'confirmed' })).toBe(false)
    expect(isGameResult('win')).toBe(false)
  })

  it('comments on each outcome', () => {
    expect(commentOnGame({ outcome: 'win', board, winningLine: [1, 2, 3] })).toBe(
      'Well played — you won with three in a row on cells 1, 2 and 3! Say “play tic-tac-toe” for a rematch.',
    )
    expect(commentOnGame({ outcome: 'loss', board, winningLine: [4, 5, 6] })).toContain('I got three in a row on cells 4, 5 and 6')
    expect(commentOnGame({ outcome: 'draw', board, winningLine: null })).toMatch(/^A draw — well played/)
    expect(commentOnGame({ outcome: 'resigned', board, moves: [{}, {}, {}] })).toMatch(/^You resigned after 3 moves/)
    expect(commentOnGame({ outcome: 'resigned', board, moves: [] })).toMatch(/^You resigned before the first move/)
  })

  it('is what the offline model says after the tool result', () => {
    const text = offlineSummaryOf({ skills, toolName: 'tictactoe', result: { outcome: 'win', board, winningLine: [1, 2, 3] } })
    expect(text).toMatch(/^Well played — you won/)
  })
})
