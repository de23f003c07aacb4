import type { OperatorView, WaitingCallView } from '@/lib/protocol'
import { EndCallButton } from './EndCallButton'
import { McpServersSection } from './McpServersSection'
import { CELL, EMPTY, HEAD_CELL, HEADING, NOTE, SECTION, TABLE } from './panel-styles'
import { RefreshButton } from './RefreshButton'


/** "4 min", "2 h 5 min", "12 s": how long from `from` to `to`. */
function duration(from: string, to: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

/** `12:04:05 UTC` */
function clock(iso: string): string {
  return `${iso.slice(11, 19)} UTC`
}

/**
 * The operator's view (`OperatorView`): the calls waiting for a person, each with a way to end
 * it; the external MCP servers; this instance's refusals of the last hour; each account's model
 * use of today. Accounts are shown hashed, the same value in every list.
 */
export function OperatorPanel({ view }: { view: OperatorView }) {
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Read at {clock(view.at)} from instance <span className="font-mono">{view.instance}</span>.
        </p>
        <RefreshButton />
      </div>

      <section aria-labelledby="waiting-heading" className={SECTION}>
        <h2 id="waiting-heading" className={HEADING}>
          Tool calls waiting for an answer ({view.waiting.length})
        </h2>
        <p className={NOTE}>Every instance’s, from the sessions’ store. Ending one stops it at once, and the person’s chat says an operator ended it.</p>
        {view.waiting.length === 0 ? (
          <p className={EMPTY}>No tool call is waiting.</p>
        ) : (
          <ul className="mt-3 space-y-3" aria-label="Waiting tool calls">
            {view.waiting.map((call) => (
              <WaitingCallItem key={`${call.account}:${call.callId}`} call={call} at={view.at} />
            ))}
          </ul>
        )}
      </section>

      <McpServersSection servers={view.servers} />

      <section aria-labelledby="refusals-heading" className={SECTION}>
        <h2 id="refusals-heading" className={HEADING}>
          Refusals in the last hour
        </h2>
        <p className={NOTE}>This instance’s, by code (a 429’s scope: whose limit it was).</p>
        {view.refusals.counts.length === 0 ? (
          <p className={EMPTY}>No request was refused.</p>
        ) : (
          <table className={TABLE} aria-labelledby="refusals-heading">
            <thead>
              <tr>
                <th scope="col" className={HEAD_CELL}>Code</th>
                <th scope="col" className={HEAD_CELL}>Scope</th>
                <th scope="col" className={`${HEAD_CELL} text-right`}>Count</th>
              </tr>
            </thead>
            <tbody>
              {view.refusals.counts.map((refusal) => (
                <tr key={`${refusal.code}:${refusal.scope}`}>
                  <td className={`${CELL} break-all font-mono`}>{refusal.code}</td>
                  <td className={CELL}>{refusal.scope || '—'}</td>
                  <td className={`${CELL} text-right tabular-nums`}>{refusal.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="usage-heading" className={SECTION}>
        <h2 id="usage-heading" className={HEADING}>
          Model use today ({view.usage.day})
        </h2>
        {!view.usage.counted ? (
          <p className={EMPTY}>Not counted: no model budget is configured (MODEL_BUDGET_TOKENS_PER_DAY).</p>
        ) : view.usage.accounts.length === 0 ? (
          <p className={EMPTY}>No account has used the model today.</p>
        ) : (
          <table className={TABLE} aria-labelledby="usage-heading">
            <thead>
              <tr>
                <th scope="col" className={HEAD_CELL}>Account</th>
                <th scope="col" className={`${HEAD_CELL} text-right`}>Tokens</th>
                <th scope="col" className={`${HEAD_CELL} text-right`}>Daily limit</th>
              </tr>
            </thead>
            <tbody>
              {view.usage.accounts.map((account) => (
                <tr key={account.account}>
                  <td className={`${CELL} font-mono`}>{account.account}</td>
                  <td className={`${CELL} text-right tabular-nums`}>{account.tokens.toLocaleString('en')}</td>
                  <td className={`${CELL} text-right tabular-nums`}>{account.limit === null ? 'none' : account.limit.toLocaleString('en')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  )
}

function WaitingCallItem({ call, at }: { call: WaitingCallView; at: string }) {
  const field = 'text-zinc-600 dark:text-zinc-400'
  return (
    <li className="rounded-xl border border-zinc-200 bg-zinc-50 p-3 dark:border-zinc-800 dark:bg-zinc-900" aria-label={`${call.tool}, question ${call.question}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-mono text-sm font-semibold text-zinc-900 dark:text-zinc-50">
            {call.tool} · {call.question}
          </p>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-zinc-800 dark:text-zinc-200">
            <dt className={field}>Account</dt>
            <dd className="font-mono">{call.account}</dd>
            <dt className={field}>Waiting</dt>
            <dd>
              {duration(call.since, at)}, since {clock(call.since)}
            </dd>
            <dt className={field}>Instance</dt>
            <dd className="break-all font-mono">{call.instance ?? 'unknown'}</dd>
            <dt className={field}>In memory</dt>
            <dd>{call.hot ? 'hot: an answer resumes it' : 'cold: an answer replays its journal'}</dd>
            <dt className={field}>Call</dt>
            <dd className="break-all font-mono text-xs">{call.callId}</dd>
          </dl>
        </div>
        <EndCallButton call={call} />
      </div>
    </li>
  )
}
