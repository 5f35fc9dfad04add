import { describe, expect, it } from 'vitest';
import { SPEC_TIMING } from './timing';

describe('spec constants', () => {
  it('polls every 2 s, shows "Copied!" for 2.5 s and waits 200 ms before fetching a quote', () => {
    expect(SPEC_TIMING.pollMs).toBe(2000);
    expect(SPEC_TIMING.copiedMs).toBe(2500);
    expect(SPEC_TIMING.quoteDelayMs).toBe(200);
  });
});
