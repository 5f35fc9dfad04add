import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_MODULES, CSS_SEPARATOR, scanCheckoutImports, splitCss, SRC } from './checkout-split';

/** Puts the two halves back together the way src/element/styles.ts does. */
function interleave(first: string, chunk: string): string {
  const a = first.split(CSS_SEPARATOR);
  const b = chunk ? chunk.split(CSS_SEPARATOR) : [];
  expect(a.length).toBe(b.length + 1);
  return a.map((p, i) => p + (b[i] ?? '')).join('');
}

describe('splitCss', () => {
  const first = (name: string) => ['sc-plan', 'sc-grid', 'sc-btn'].includes(name);

  it('keeps the rules the first script can match and gives the chunk the rest, in the original order', () => {
    const css = ':host{color:red}.sc-plan{a:1}.sc-form{b:2}.sc-grid .sc-plan{c:3}.sc-form .sc-btn{d:4}.sc-btn:not(.sc-form){e:5}';
    const { first: f, chunk } = splitCss(css, first);
    expect(f.split(CSS_SEPARATOR)).toEqual([':host{color:red}.sc-plan{a:1}', '.sc-grid .sc-plan{c:3}', '.sc-btn:not(.sc-form){e:5}']);
    expect(chunk.split(CSS_SEPARATOR)).toEqual(['.sc-form{b:2}', '.sc-form .sc-btn{d:4}']);
    expect(interleave(f, chunk)).toBe(css);
  });

  it('keeps a selector list for the first script when one of its selectors can match there', () => {
    const { first: f, chunk } = splitCss('.sc-form,.sc-plan{a:1}', first);
    expect(f).toBe('.sc-form,.sc-plan{a:1}');
    expect(chunk).toBe('');
  });

  it('splits a conditional group rule by rule, each run in its own copy of the group', () => {
    const css = '@media (width<=700px){.sc-plan{a:1}.sc-form{b:2}.sc-grid{c:3}}@keyframes x{to{opacity:0}}';
    const { first: f, chunk } = splitCss(css, first);
    expect(f.split(CSS_SEPARATOR)).toEqual([
      '@media (width<=700px){.sc-plan{a:1}}',
      '@media (width<=700px){.sc-grid{c:3}}@keyframes x{to{opacity:0}}',
    ]);
    expect(chunk).toBe('@media (width<=700px){.sc-form{b:2}}');
  });

  it('starts the first script with an empty part when the sheet starts with chunk rules', () => {
    const { first: f, chunk } = splitCss('.sc-form{b:2}.sc-plan{a:1}', first);
    expect(f.split(CSS_SEPARATOR)).toEqual(['', '.sc-plan{a:1}']);
    expect(interleave(f, chunk)).toBe('.sc-form{b:2}.sc-plan{a:1}');
  });
});

describe('scanCheckoutImports', () => {
  it('hands the chunk React whole and only first-script modules by name', () => {
    const wanted = scanCheckoutImports();
    expect(wanted.get('react')).toContain('useState');
    expect(wanted.get('react/jsx-runtime')).toContain('jsx');
    expect(wanted.get('flow/context.tsx')).toContain('useI18n');
    for (const key of wanted.keys()) {
      if (key.startsWith('react')) continue;
      expect(CHECKOUT_MODULES).not.toContain(join(SRC, key));
    }
  });
});
