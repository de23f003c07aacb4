/**
 * The HTTP edge: everything a request meets before a turn or a tool runs, shared by the chat
 * (`POST /api/chat`), the MCP server (`/api/mcp`) and the MCP Apps routes.
 *
 * What is here, and why it left `lib/engine` (which keeps the turn):
 * - who is asking: the identity cookie (`client-identity.ts`) and whether the browser spoke
 *   HTTPS (`request-is-https.ts`, `TRUST_PROXY`); every route asks `identify` first, which with
 *   sign-in configured is the signed-in account's (`lib/auth` fills the seam, `lib/server` wires it),
 *   with the `Person` it is (address, groups, admin) and the lists that name people (`people-list.ts`);
 * - from where: the client address a request is counted against (`client-address.ts`), and the
 *   process-wide hook that makes `X-Forwarded-For` the TCP peer (`peer-address.ts`);
 * - how much: per-address token buckets (`rate-limiter.ts`), admission with work in progress
 *   first (`admission.ts`), the gate that holds heavy clients' requests before Next
 *   (`admission-gate.ts`), requests in flight per address (`in-flight-limiter.ts`);
 * - what was sent: the JSON body, with its size limit (`read-json-body.ts`);
 * - what the operator is told: one log line per request, its duration, the refusals by code
 *   (`request-telemetry.ts`);
 * - what the client is told: the typed refusal that knows its HTTP status (`errors.ts`, with
 *   `toChatFailure`, the one place a failure the chat expects becomes a code and a message);
 * - the chat route's own part: identity, address, limits, body, then the turn
 *   (`handle-chat-request.ts`).
 *
 * What stays in `lib/engine`: the turn — preparing it against the sessions, model steps, tool
 * execution, NDJSON streaming, conversation signing, and the ids of tool calls (`call-ids.ts`,
 * `work-in-progress.ts`): the engine makes those ids, so it is the engine that tells the edge
 * whether a body continues work in progress (`ChatTurns.workOf`), as the MCP server does for its
 * own (`mcp/server/mcp-work-in-progress.ts`).
 *
 * Direction: the edge sits below the engine and `lib/mcp`, and imports neither. It depends on
 * `lib/protocol` (the error codes and their statuses) and on `lib/sessions` for one thing, to
 * recognise the store's `SessionStoreUnavailableError`, which `toChatFailure` turns into a 503
 * (any layer that meets it — a route, a turn, a tool that cannot start — says the same); and on
 * `lib/telemetry`, a leaf, for the log line and the metrics of every request
 * (`request-telemetry.ts`: each request's route, status and duration, and the code it was refused
 * with). The engine
 * imports the edge (its refusals are `ChatRequestError`s; tool starts per address use the rate
 * limiter), and so does `lib/mcp` (identity, address, admission, body reading), which must not
 * reach the engine, not even through here. The edge drives a turn through `ChatTurns`, an
 * interface it declares and the engine's `ChatServer` satisfies; the composition root
 * (`lib/server`, `app/`) hands the one to the other. `lib/layers.test.ts` keeps it so.
 */
export { handleChatRequest } from './handle-chat-request'
export type { ChatTurns, FollowCalls, OpenTurnOptions } from './handle-chat-request'
export { ChatRequestError, Refusal, hasMark, isChatRequestError, toApiFailure, toChatFailure } from './errors'
export { createClientIdentity, readCookies, CLIENT_COOKIE, SECURE_CLIENT_COOKIE } from './client-identity'
export type { BrowserRevoked, ClientIdentity, ClientIdentityResolver } from './client-identity'
export { isEmptyList, names, parsePeopleList, peopleListOf } from './people-list'
export type { PeopleList, Person } from './people-list'
export { readTrustProxy, requestIsHttps } from './request-is-https'
export { readBodyText, readJsonBody, MAX_BODY_BYTES } from './read-json-body'
export { clientAddressOf, addressKey } from './client-address'
export { installPeerAddress } from './peer-address'
export { installPageIdentity, pageIdentityHeaders } from './page-identity'
export { createRateLimiter } from './rate-limiter'
export type { RateDecision, RateLimiter, RateLimiterOptions } from './rate-limiter'
export { createAdmission, groupOf } from './admission'
export type { Admission, AdmissionOptions, Work } from './admission'
export { installAdmissionGate } from './admission-gate'
export { installRequestTelemetry, noteIdentity, noteRefusal, noteTurnError, UNOBSERVED } from './request-telemetry'
export { createInFlightLimiter } from './in-flight-limiter'
export type { InFlightLimiter } from './in-flight-limiter'
