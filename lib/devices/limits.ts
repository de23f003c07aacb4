/** How long a code may be used after it was shown. */
export const CODE_TTL_MS = 10 * 60 * 1000

/**
 * The devices' limits. Fixed, not configured: they bound abuse (guessing codes, growing the
 * store), not anything a deployment sizes.
 */
export interface DeviceLimits {
  /** Codes an identity may have live at once (a code made when one is lost or mistyped). */
  maxLiveCodes: number
  /** Browsers an identity may have, the first one included. */
  maxBrowsers: number
  /** Join attempts (right or wrong) one address may make at once, after a quiet time… */
  joinBurstPerAddress: number
  /** …and per minute, sustained. */
  joinsPerMinutePerAddress: number
  /** Join attempts this server takes from everyone at once… */
  joinBurst: number
  /** …and per minute, sustained. */
  joinsPerMinute: number
}

/**
 * 40-bit codes, at most 3 live per identity; join attempts 10 at once and 6 a minute per address,
 * 100 at once and 600 a minute for the server. Against 1,000 live codes at the server's 10 a
 * second, one guess in 2^40 / 1,000 ≈ 1.1e9 hits: over three years of the whole budget.
 */
export const DEFAULT_DEVICE_LIMITS: DeviceLimits = {
  maxLiveCodes: 3,
  maxBrowsers: 10,
  joinBurstPerAddress: 10,
  joinsPerMinutePerAddress: 6,
  joinBurst: 100,
  joinsPerMinute: 600,
}
