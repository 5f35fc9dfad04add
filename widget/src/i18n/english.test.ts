// The script-tag builds' first script carries only en.plans.ts of the English tables (english.lazy.ts);
// dist/checkout.js completes them. (scripts/first-script.test.ts checks that the first script reads
// no other text.)
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { enGB } from './en-gb';
import { enUS } from './en-us';
import { enGBPlans, enPlans } from './en.plans';
import * as lazy from './english.lazy';

describe('English tables of the first script', () => {
  it('shows the plan page in each English variant exactly as the whole tables do', () => {
    for (const key of Object.keys(enPlans) as (keyof typeof enPlans)[]) {
      expect(en[key], key).toBe(enPlans[key]);
      expect(enUS[key], key).toBe(enPlans[key]);
      expect(enGB[key], key).toBe(enGBPlans[key]);
    }
  });

  it('completes the tables in place once the checkout module brings the whole ones', () => {
    const before = lazy.enGB;
    expect(lazy.en.successTitle).toBeUndefined();
    expect(lazy.en.choosePlan).toBe(en.choosePlan);
    lazy.completeEnglish({ en, enUS, enGB });
    expect(before).toBe(lazy.enGB);
    expect(lazy.en).toEqual(en);
    expect(lazy.enUS).toEqual(enUS);
    expect(lazy.enGB).toEqual(enGB);
  });
});
