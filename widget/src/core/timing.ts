// Spec §4 and §9 constants. `timing` is mutable so tests can shorten the waits instead of sleeping.
export const SPEC_TIMING = Object.freeze({
  /** Waiting view: GET /orders/{id} every 2 s. */
  pollMs: 2000,
  /** Copy buttons show "Copied!" for 2.5 s. */
  copiedMs: 2500,
  /** Minimum fetch delay: the quote is asked for 200 ms after the last change. */
  quoteDelayMs: 200,
  /** The email rule is checked this long after typing stops (and at once on blur or submit). */
  emailDelayMs: 500,
});

export const timing: { -readonly [K in keyof typeof SPEC_TIMING]: number } = { ...SPEC_TIMING };
