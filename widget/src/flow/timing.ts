// Spec §4 and §9 constants. A mutable object so tests can shorten the waits instead of sleeping.
export const timing = {
  /** Waiting view: GET /orders/{id} every 2 s. */
  pollMs: 2000,
  /** Copy buttons show "Copied!" for 2.5 s. */
  copiedMs: 2500,
  /** Minimum fetch delay: the quote is asked for 200 ms after the last change. */
  quoteDelayMs: 200,
  /** The email rule is checked this long after typing stops (and at once on blur or submit). */
  emailDelayMs: 500,
};
