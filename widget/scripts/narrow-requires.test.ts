import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Rolldown } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { narrow, narrowRequires, reexport, settleExports } from './narrow-requires';

/** The re-export a narrowed source's require() now names, or null when it names none. */
function target(code: string | null): string | null {
  const id = code && /require\(("\\u0000narrow-requires:(?:[^"\\]|\\.)*")\)/.exec(code)?.[1];
  return id ? reexport(JSON.parse(id) as string) : null;
}

describe('narrow', () => {
  it.each([
    ['a member read', 'var R = require("react"); R.version;', 'export { version } from "react";'],
    ['members read and called', 'var S = require("s"); S.now(); if (typeof S.log === "function") S.a;', 'export { a, log, now } from "s";'],
    ['the second of one declaration', 'var S = require("s"), R = require("react"); R.x; S(1);', 'export { x } from "react";'],
    ['a member named like the binding', 'var R = require("r"); R.a; o.R; ({ R: 1 });', 'export { a } from "r";'],
  ])('narrows %s', (_, code, want) => {
    expect(target(narrow(code, '/m.js'))).toBe(want);
  });

  it.each([
    ['handed on', 'var R = require("r"); R.a; f(R);'],
    ['read with a computed key', 'var R = require("r"); R.a; R[k];'],
    ['destructured', 'var R = require("r"); var { a } = R;'],
    ['written to', 'var R = require("r"); R.a = 1;'],
    ['incremented', 'var R = require("r"); R.a++;'],
    ['deleted from', 'var R = require("r"); delete R.a;'],
    ['shadowed by a parameter', 'var R = require("r"); R.a; function f(R) { return R; }'],
    ['never read', 'var R = require("r");'],
    ['required inside a function', 'function f() { var R = require("r"); return R.a; }'],
    ['required with a computed name', 'var R = require(name); R.a;'],
  ])('leaves a require alone when it is %s', (_, code) => {
    expect(narrow(code, '/m.js')).toBeNull();
  });

  it('leaves everything but the require() argument as it was', () => {
    const code = 'var R = require("react");\nexports.f = function () { return R.version; };\n';
    const out = narrow(code, '/m.js') ?? '';
    expect(out.replace(/require\("[^)]*"\)/, 'require("react")')).toBe(code);
  });
});

/** The exports a CommonJS module's source gives when run. */
function run(code: string): Record<string, unknown> {
  const exports: Record<string, unknown> = {};
  new Function('exports', code)(exports);
  return exports;
}

describe('settleExports', () => {
  // As scheduler does: unstable_now assigned in an if/else, then read back by the module itself.
  const scheduler = `"use strict";
exports.now = void 0;
if (typeof performance === "object") { var p = performance; exports.now = function () { return p.now(); }; }
else { var d = Date; exports.now = function () { return d.now(); }; }
function tick() { return exports.now() > 0; }
exports.tick = tick;
exports.unused = function () { return 1; };
`;

  it('keeps an export read back in a local, assigned to exports once at the end', () => {
    const out = settleExports(scheduler) ?? '';
    expect(out).not.toMatch(/exports\.now\b(?![^\n]*= __exports_now;$)/m);
    expect(out.trimEnd().split('\n').slice(-2)).toEqual(['var __exports_now;', 'exports.now = __exports_now;']);
    expect(out.startsWith('"use strict";')).toBe(true);
    // The same exports, working the same.
    const [before, after] = [run(scheduler), run(out)];
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect((after.tick as () => boolean)()).toBe(true);
    expect(typeof after.now).toBe('function');
  });

  it('settles an export assigned twice and never read', () => {
    expect(settleExports('if (a) exports.x = 1; else exports.x = 2;')).toContain('exports.x = __exports_x;');
  });

  it.each([
    ['assigned once, never read', 'exports.a = 1; exports.b = function () {};'],
    ['assigned inside a function', 'exports.a = 1; function f() { exports.a = 2; } exports.a;'],
    ['updated with +=', 'exports.a = 1; exports.a += 1;'],
    ['incremented', 'exports.a = 1; exports.a++;'],
    ['handed on', 'exports.a = 1; exports.a; f(exports);'],
    ['read with a computed key', 'exports.a = 1; exports.a; exports[k];'],
    ['declared by the module', 'var exports = {}; exports.a = 1; exports.a;'],
  ])('leaves the module alone when an export is %s', (_, code) => {
    expect(settleExports(code)).toBeNull();
  });
});

describe('narrowRequires in a build', () => {
  const dir = mkdtempSync(join(tmpdir(), 'narrow-requires-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // lib.cjs has a used and an unused export; mid.cjs requires it and reads one; the entry is ESM.
  writeFileSync(
    join(dir, 'lib.cjs'),
    'exports.used = function () { return "USED_EXPORT"; };\nexports.unused = function () { return "UNUSED_EXPORT"; };\n',
  );
  writeFileSync(join(dir, 'mid.cjs'), 'var lib = require("./lib.cjs");\nexports.run = function () { return lib.used(); };\n');
  writeFileSync(join(dir, 'entry.js'), 'import { run } from "./mid.cjs";\nconsole.log(run());\n');

  async function bundle(narrowed: boolean): Promise<string> {
    const result = await build({
      configFile: false,
      logLevel: 'silent',
      plugins: narrowed ? [narrowRequires(/\/mid\.cjs$/)] : [],
      build: { write: false, minify: false, lib: { entry: join(dir, 'entry.js'), formats: ['es'], fileName: 'out' } },
    });
    const [output] = Array.isArray(result) ? result : [result as Rolldown.RolldownOutput];
    return output?.output.map((chunk) => (chunk.type === 'chunk' ? chunk.code : '')).join('') ?? '';
  }

  it('drops the export that was required but never read', async () => {
    const before = await bundle(false);
    expect(before).toContain('UNUSED_EXPORT');
    const after = await bundle(true);
    expect(after).toContain('USED_EXPORT');
    expect(after).not.toContain('UNUSED_EXPORT');
  });

  it('drops the unread exports of a module that reads its own exports back, and keeps it working', async () => {
    writeFileSync(
      join(dir, 'self.cjs'),
      'exports.now = void 0;\nif (typeof Date === "function") { exports.now = function () { return "NOW"; }; } else { exports.now = function () { return "LATER"; }; }\n' +
        'exports.used = function () { return exports.now(); };\nexports.unused = function () { return "UNREAD_EXPORT"; };\n',
    );
    writeFileSync(join(dir, 'self-entry.js'), 'import { used } from "./self.cjs";\nconsole.log(used());\n');
    const bundleSelf = async (settled: boolean) => {
      const result = await build({
        configFile: false,
        logLevel: 'silent',
        plugins: settled ? [narrowRequires(/\/self\.cjs$/)] : [],
        build: { write: false, minify: false, lib: { entry: join(dir, 'self-entry.js'), formats: ['es'], fileName: 'self' } },
      });
      const [output] = Array.isArray(result) ? result : [result as Rolldown.RolldownOutput];
      return output?.output.map((chunk) => (chunk.type === 'chunk' ? chunk.code : '')).join('') ?? '';
    };
    expect(await bundleSelf(false)).toContain('UNREAD_EXPORT');
    const code = await bundleSelf(true);
    expect(code).not.toContain('UNREAD_EXPORT');
    const logged: unknown[] = [];
    new Function('console', code.replace(/^export .*$/m, ''))({ log: (v: unknown) => logged.push(v) });
    expect(logged).toEqual(['NOW']);
  });

  it('keeps the program working: the narrowed bundle still calls the export it reads', async () => {
    const code = await bundle(true);
    const logged: unknown[] = [];
    const run = new Function('console', code.replace(/^export .*$/m, ''));
    run({ log: (v: unknown) => logged.push(v) });
    expect(logged).toEqual(['USED_EXPORT']);
  });
});
