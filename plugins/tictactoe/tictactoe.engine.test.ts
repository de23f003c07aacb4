import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider'
import { afterEach, describe, expect, it } from 'vitest'
import { createChatServer, type ChatServer } from '@/lib/engine'
import type { PluginElicitRequestEvent } from '@/lib/protocol'
import { createChatTestClient, elicitRequests, eventsOf, textOf, type ChatTestClient, type TurnResponse } from '@/lib/engine/testing/chat-test-client'
import { createOfflineModel } from '@/lib/models'
import { ticTacToeOffline } from './offline'
import { boardFromMoves, boardSchema, fallbackMove, formatBoard, gameMoveSchema, isLegalMove, legalMoves, type Board, type GameMove } from './game'
import { ticTacToeTool, type TicTacToeResult } from './tool'

let chat: ChatServer | undefined
afterEach(() => chat?.close())

async function start(model: LanguageModelV3 = createOfflineModel({ delayMs: 0, skills: [ticTacToeOffline] })) {
  chat = await createChatServer({ model, tools: [ticTacToeTool] })
  return createChatTestClient({ chat })
}

/** What a pickMove request carries: its readable message and the game so far. */
function readRequest(request: PluginElicitRequestEvent) {
  const decoded = request
  return {
    message: decoded.message,
    board: boardSchema.parse(decoded.context.board),
    moveHistory: gameMoveSchema.array().parse(decoded.context.moveHistory),
  }
}

function onlyRequest(turn: TurnResponse): PluginElicitRequestEvent {
  const requests = elicitRequests(turn.events)
  if (requests.length !== 1) throw new Error(`expected one elicitation in ${JSON.stringify(turn.events)}`)
  return requests[0]!
}

interface Game {
  result: TicTacToeResult
  /** Every pickMove request, in order. */
  requests: PluginElicitRequestEvent[]
  /** The turn that returned the result. */
  last: TurnResponse
  callId: string
}

/**
 * Ask for a game, then answer each pickMove with `choose(board)` (a cell 1-9, or 'resign')
 * until the tool returns.
 */
async function play(client: ChatTestClient, choose: (board: Board, turn: number) => number | 'resign', opening = "Let's play tic-tac-toe"): Promise<Game> {
  let turn = await client.say(opening)
  const [call] = eventsOf(turn.events, 'tool_calls')[0]?.calls ?? []
  if (!call) throw new Error(`no tool call in ${JSON.stringify(turn.events)}`)
  expect(call.name).toBe('tictactoe')
  const requests: PluginElicitRequestEvent[] = []
  for (let index = 0; index < 9; index++) {
    const request = onlyRequest(turn)
    requests.push(request)
    const choice = choose(readRequest(request).board, index)
    turn = await client.answer([{ request, result: choice === 'resign' ? { action: 'decline' } : { action: 'accept', content: { cell: choice } } }])
    const [result] = eventsOf(turn.events, 'tool_result')
    if (result) return { result: JSON.parse(result.content), requests, last: turn, callId: call.id }
  }
  throw new Error('the game did not end within nine answers')
}

/** Play these cells in order; a cell already taken is skipped for the next free one in the list. */
function cells(...preferred: number[][]) {
  return (board: Board, turn: number) => {
    const options = preferred[turn] ?? []
    const cell = options.find((candidate) => isLegalMove(board, candidate))
    if (cell === undefined) throw new Error(`none of ${options.join(', ')} is free on\n${formatBoard(board)}`)
    return cell
  }
}

/** The moves alternate X (the user) and O (the model), every one on an empty cell. */
function expectLegalGame(moves: GameMove[]) {
  moves.forEach((move, index) => expect(move).toMatchObject(index % 2 === 0 ? { player: 'user', mark: 'X' } : { player: 'model', mark: 'O' }))
  expect(() => boardFromMoves(moves)).not.toThrow()
}

describe('a whole game against the offline model', () => {
  it('is won by a fork: the result, a legal game, and the assistant’s comment', async () => {
    const client = await start()
    const game = await play(client, cells([1], [9], [7], [4, 8]))

    expect(game.result).toMatchObject({ outcome: 'win', winningLine: expect.any(Array) })
    expect(game.result.winningLine!.every((cell) => game.result.board[cell - 1] === 'X')).toBe(true)
    expectLegalGame(game.result.moves)
    expect(game.result.board).toEqual(boardFromMoves(game.result.moves))
    // Each request showed the board as it was: the user's moves and the model's replies so far.
    game.requests.forEach((request, index) => {
      const { board, moveHistory, message } = readRequest(request)
      expect(moveHistory).toEqual(game.result.moves.slice(0, index * 2))
      expect(board).toEqual(boardFromMoves(moveHistory))
      expect(message).toContain(formatBoard(board))
    })
    expect(textOf(game.last.events)).toMatch(/^Well played — you won with three in a row on cells/)
    expect(game.last.events.at(-1)?.type).toBe('complete')
    expect(client.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant'])
    expect(await chat!.listActive()).toEqual([])
  })

  it('is lost when the user leaves the diagonal open', async () => {
    const client = await start()
    const game = await play(client, cells([2], [8], [3]))
    expect(game.result).toMatchObject({ outcome: 'loss', winningLine: [1, 5, 9] })
    expect(game.result.moves.map((move) => move.cell)).toEqual([2, 5, 8, 1, 3, 9])
    expect(textOf(game.last.events)).toContain('I got three in a row on cells 1, 5 and 9')
  })

  it('is drawn when both sides block', async () => {
    const client = await start()
    const game = await play(client, cells([5], [9], [2], [4], [7]))
    expect(game.result).toMatchObject({ outcome: 'draw', winningLine: null })
    expect(game.result.moves).toHaveLength(9)
    expectLegalGame(game.result.moves)
    expect(textOf(game.last.events)).toMatch(/^A draw — well played/)
  })

  it('asks in words any client can read, and reports each move as it happens', async () => {
    const client = await start()
    const first = await client.say("Let's play tic-tac-toe")
    expect(textOf(first.events)).toMatch(/^Let's play! You're X/)
    const request = onlyRequest(first)
    expect(request).toMatchObject({ toolName: 'tictactoe', key: 'pickMove' })
    expect(readRequest(request).message).toBe(
      `Your move — you are X, and you go first.\n\n1 | 2 | 3\n---------\n4 | 5 | 6\n---------\n7 | 8 | 9\n\nEmpty cells: 1, 2, 3, 4, 5, 6, 7, 8, 9.`,
    )
    expect(request.schema).toMatchObject({ type: 'object', properties: { cell: { type: 'integer', minimum: 1, maximum: 9 } } })

    const second = await client.answer([{ request, result: { action: 'accept', content: { cell: 1 } } }])
    expect(eventsOf(second.events, 'plugin_log').map((event) => event.message)).toEqual(['Move 1: you took cell 1', 'Move 2: the model took cell 5'])
    expect(eventsOf(second.events, 'plugin_progress').map((event) => event.message)).toEqual([
      'You took cell 1; the model is thinking',
      'The model took cell 5; your move',
    ])
    expect(readRequest(onlyRequest(second)).message).toMatch(/^The model took cell 5\. Your move — you are X\.\n\nX \| 2 \| 3\n---------\n4 \| O \| 6/)
  })
})

describe('ending early and answering wrong', () => {
  it('ends cleanly when the user resigns (declines) at the first move', async () => {
    const client = await start()
    const game = await play(client, () => 'resign')
    expect(game.result).toMatchObject({ outcome: 'resigned', winningLine: null, moves: [] })
    expect(textOf(game.last.events)).toMatch(/^You resigned before the first move/)
    expect(await chat!.listActive()).toEqual([])
  })

  it('ends cleanly when the user cancels mid-game', async () => {
    const client = await start()
    let turn = await client.say('play tictactoe')
    turn = await client.answer([{ request: onlyRequest(turn), result: { action: 'accept', content: { cell: 1 } } }])
    turn = await client.answer([{ request: onlyRequest(turn), result: { action: 'cancel' } }])
    const result: TicTacToeResult = JSON.parse(eventsOf(turn.events, 'tool_result')[0]!.content)
    expect(result).toMatchObject({ outcome: 'resigned', moves: [{ cell: 1 }, { cell: 5 }] })
    expect(result.board).toEqual(boardFromMoves(result.moves))
    expect(textOf(turn.events)).toMatch(/^You resigned after 2 moves/)
    expect(await chat!.listActive()).toEqual([])
  })

  it('asks again, saying why, when the user picks a taken cell', async () => {
    const client = await start()
    const first = await client.say("Let's play tic-tac-toe")
    const second = await client.answer([{ request: onlyRequest(first), result: { action: 'accept', content: { cell: 1 } } }])
    const request = onlyRequest(second)
    const taken = await client.answer([{ request, result: { action: 'accept', content: { cell: 5 } } }])
    const again = onlyRequest(taken)
    expect(again.elicitId).not.toBe(request.elicitId)
    expect(readRequest(again).message).toMatch(/^Cell 5 is already taken by O\. Pick an empty cell\./)
    expect(readRequest(again).board).toEqual(readRequest(request).board)
    expect(eventsOf(taken.events, 'tool_result')).toEqual([])

    const next = await client.answer([{ request: again, result: { action: 'accept', content: { cell: 9 } } }])
    expect(readRequest(onlyRequest(next)).moveHistory.map((move) => move.cell)).toEqual([1, 5, 9, 3])
  })

  it('rejects a cell outside 1-9 by the schema and keeps waiting', async () => {
    const client = await start()
    const first = await client.say("Let's play tic-tac-toe")
    const request = onlyRequest(first)
    const turn = await client.answer([{ request, result: { action: 'accept', content: { cell: 10 } } }])
    expect(eventsOf(turn.events, 'plugin_elicit_rejected')[0]).toMatchObject({ elicitId: request.elicitId, issues: [{ path: 'cell' }] })
  })
})

describe('two games in one chat', () => {
  it('plays a second game after the first, with its own tool call', async () => {
    const client = await start()
    const first = await play(client, cells([2], [8], [3]))
    expect(first.result.outcome).toBe('loss')
    const second = await play(client, cells([1], [9], [7], [4, 8]), 'Another game?')
    expect(second.result.outcome).toBe('win')
    expect(second.callId).not.toBe(first.callId)
    expect(second.requests[0] && readRequest(second.requests[0]).moveHistory).toEqual([])
    expect(client.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant'])
    expect(await chat!.listActive()).toEqual([])
  })
})

/** The offline model, recording every call; `override` may answer a call instead. */
function recordingModel(override?: (options: LanguageModelV3CallOptions) => string | Error | undefined) {
  const offline = createOfflineModel({ delayMs: 0, skills: [ticTacToeOffline] })
  const calls: LanguageModelV3CallOptions[] = []
  const model: LanguageModelV3 = {
    ...offline,
    async doGenerate(options) {
      calls.push(options)
      const text = override?.(options)
      if (text === undefined) return offline.doGenerate(options)
      if (text instanceof Error) throw text
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
        warnings: [],
      }
    },
    async doStream(options) {
      calls.push(options)
      return offline.doStream(options)
    },
  }
  return { model, calls }
}

function isGameSampling(options: LanguageModelV3CallOptions): boolean {
  return options.prompt.some((message) => message.role === 'system' && /tic-tac-toe/.test(message.content))
}

describe('what the model is asked', () => {
  it('gets the game as real tool-call and tool-result parts, with the board, and no tools', async () => {
    const { model, calls } = recordingModel()
    const client = await start(model)
    await play(client, cells([1], [9], [7], [4, 8]))

    const samplings = calls.filter(isGameSampling)
    expect(samplings).toHaveLength(3)
    const second = samplings[1]!
    expect(second.tools ?? []).toEqual([])
    const parts = second.prompt.flatMap((message: LanguageModelV3Message) =>
      message.role === 'assistant' || message.role === 'tool' ? message.content.map((part) => ({ role: message.role, part })) : [],
    )
    const toolCalls = parts.flatMap(({ part }) => (part.type === 'tool-call' ? [part] : []))
    const toolResults = parts.flatMap(({ part }) => (part.type === 'tool-result' ? [part] : []))
    expect(toolCalls.map((call) => call.toolName)).toEqual(['pickMove', 'pickMove'])
    expect(toolCalls[0]!.input).toEqual({ board: formatBoard(boardFromMoves([])), moveNumber: 1 })
    expect(toolCalls[1]!.input).toEqual({
      board: formatBoard(boardFromMoves([{ player: 'user', mark: 'X', cell: 1 }, { player: 'model', mark: 'O', cell: 5 }])),
      moveNumber: 3,
    })
    expect(toolCalls.every((call) => call.toolCallId.startsWith('elicit_'))).toBe(true)
    expect(toolResults.map((result) => result.toolCallId)).toEqual(toolCalls.map((call) => call.toolCallId))
    expect(toolResults.map((result) => result.output)).toEqual([
      { type: 'text', value: '{"cell":1}' },
      { type: 'text', value: '{"cell":9}' },
    ])
    const last = second.prompt.at(-1)
    expect(last?.role).toBe('user')
    expect(JSON.stringify(last)).toContain('Reply with the number of the cell you take')
  })

  it('asks once more after an unusable reply, then plays a legal move for the model', async () => {
    let bad = 0
    // The first two game samplings get nonsense, the third an occupied cell: each is retried or replaced.
    const { model } = recordingModel((options) => {
      if (!isGameSampling(options) || bad >= 3) return undefined
      bad++
      return bad === 3 ? 'Cell 1' : 'I would rather not say.'
    })
    const client = await start(model)
    const first = await client.say("Let's play tic-tac-toe")
    const second = await client.answer([{ request: onlyRequest(first), result: { action: 'accept', content: { cell: 1 } } }])
    const warnings = eventsOf(second.events, 'plugin_log').filter((event) => event.level === 'warning').map((event) => event.message)
    expect(warnings).toEqual([
      'The model\'s move was not usable: “I would rather not say.” names no cell; asking again',
      'The model\'s move was not usable: “I would rather not say.” names no cell',
      'No usable move from the model; playing cell 5 for it',
    ])
    const { moveHistory } = readRequest(onlyRequest(second))
    expect(moveHistory.map((move) => move.cell)).toEqual([1, 5])

    const third = await client.answer([{ request: onlyRequest(second), result: { action: 'accept', content: { cell: 9 } } }])
    expect(eventsOf(third.events, 'plugin_log').filter((event) => event.level === 'warning').map((event) => event.message)).toEqual([
      'The model\'s move was not usable: cell 1 is already taken by X; asking again',
    ])
    // The retry reached the offline model, which then chose a legal cell.
    const after = readRequest(onlyRequest(third))
    expect(after.moveHistory).toHaveLength(4)
    expectLegalGame(after.moveHistory)
  })

  it('plays on when asking the model fails, choosing the model’s move for it', async () => {
    const { model } = recordingModel((options) => (isGameSampling(options) ? new Error('model unavailable') : undefined))
    const client = await start(model)
    // The user takes the highest free cell each time.
    const game = await play(client, (board) => Math.max(...legalMoves(board)))
    expectLegalGame(game.result.moves)
    game.result.moves.forEach((move, index) => {
      if (move.player === 'model') expect(move.cell).toBe(fallbackMove(boardFromMoves(game.result.moves.slice(0, index))))
    })
    expect(game.result.moves.filter((move) => move.player === 'model').length).toBeGreaterThan(1)
    expect(game.result).toMatchObject({ outcome: 'win', winningLine: [7, 8, 9] })
  })
})
