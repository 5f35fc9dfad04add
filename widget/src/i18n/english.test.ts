// The script-tag builds' first script carries only en.plans.ts of the English tables (english.lazy.ts);
// dist/checkout.js completes them. These tests keep that split honest.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_MODULES, SRC } from '../../scripts/checkout-split';
import { en } from './en';
import { enGB } from './en-gb';
import { enUS } from './en-us';
import { enGBPlans, enPlans } from './en.plans';
import * as lazy from './english.lazy';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** The first script's source files: src/ but dist/checkout.js's modules, the after-sale screens and tests. */
const firstScript = walk(SRC).filter(
  (f) => /\.tsx?$/.test(f) && !CHECKOUT_MODULES.includes(f) && !f.startsWith(join(SRC, 'aftersale/')) && !f.includes('/test/') && !/\.test\.tsx?$/.test(f),
);

describe('English tables of the first script', () => {
  it('has every text the first script reads', () => {
    const used = new Set<string>();
    for (const f of firstScript) for (const m of readFileSync(f, 'utf8').matchAll(/\bt\.([A-Za-z_]\w*)/g)) used.add(m[1]!);
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((k) => !(k in enPlans))).toEqual([]);
  });

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
