// The first script of the script-tag builds carries only part of the English table (en.plans.ts) and
// of the icons (icons.tsx); dist/checkout.js brings the rest. Its own source files must not use more.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { enPlans } from '../src/i18n/en.plans';
import { CHECKOUT_MODULES, SRC } from './checkout-split';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** The first script's source files: src/ but dist/checkout.js's modules, the after-sale screens and tests. */
const firstScript = walk(SRC).filter(
  (f) =>
    /\.tsx?$/.test(f) &&
    !CHECKOUT_MODULES.includes(f) &&
    !f.startsWith(join(SRC, 'aftersale/')) &&
    !f.includes('/test/') &&
    !/\.test\.tsx?$/.test(f),
);

function uses(pattern: RegExp): string[] {
  const found = new Set<string>();
  for (const f of firstScript) for (const m of readFileSync(f, 'utf8').matchAll(pattern)) found.add(m[1]!);
  return [...found];
}

describe('the first script', () => {
  it('reads only the English texts of en.plans.ts', () => {
    const used = uses(/\bt\.([A-Za-z_]\w*)/g);
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((k) => !(k in enPlans))).toEqual([]);
  });

  it("draws only icons.tsx's own icons", () => {
    const table = readFileSync(join(SRC, 'flow/icons.tsx'), 'utf8');
    const own = [...table.matchAll(/^ {2}(\w+): <path/gm)].map((m) => m[1]!);
    const used = uses(/\b(?:icon|name)="([a-z]+)"/g);
    expect(used).toContain('spinner');
    expect(used.filter((n) => !own.includes(n))).toEqual([]);
  });
});
