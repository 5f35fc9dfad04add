/// <reference types="vite/client" />
// The console's house rule (issue 26, point 10): a screen never imports another screen; what two
// screens share lives in ui/ (or a concept folder such as money/).
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob<string>(['./screens/*.tsx', '!./screens/*.test.tsx', '!./screens/*.stories.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

describe('screens', () => {
  it('are there to check', () => expect(Object.keys(sources).length).toBeGreaterThan(10));
  it.each(Object.entries(sources))('%s imports no other screen', (_, src) => {
    const from = [...src.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((m) => m[1]!);
    expect(from.length).toBeGreaterThan(0);
    expect(from.filter((p) => p.startsWith('./') || p.includes('screens/'))).toEqual([]);
  });
});
