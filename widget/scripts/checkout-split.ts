// The split of the script-tag builds into the first script (what paints the plan cards) and
// dist/checkout.js (the checkout form, the order and after-sale routes, and the CSS only they use),
// loaded right after the plan cards paint. Used by vite.config.ts.
//
// dist/checkout.js is built on its own (`--mode checkout`), so it cannot import the first script's
// modules: every import of a module that stays in the first script becomes a small stand-in that
// reads the first script's own exports from a kit handed over by install() before any of the
// chunk's modules runs (src/checkout/entry.ts). Both sides of that hand-over are generated from one
// scan of the chunk's import statements, so they cannot drift apart: a name the scan missed is a
// build error in the chunk ("not exported"), never a silent undefined.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

// (Not new URL('..', import.meta.url): Vite rewrites that pattern when the tests load this file.)
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SRC = join(ROOT, 'src/');

/** The modules of dist/checkout.js; every other module of src/ it imports stays in the first script. */
export const CHECKOUT_MODULES: readonly string[] = [
  'checkout/entry.ts',
  'checkout/remote.ts',
  'checkout/checkout.ts',
  'checkout/parts.ts',
  'checkout/landing.ts',
  'api/schemas.later.ts',
  // The whole English tables (the first script has en.plans.ts).
  'i18n/english.ts',
  'i18n/en.ts',
  'i18n/en-us.ts',
  'i18n/en-gb.ts',
  'flow/IndexPage.tsx',
  'flow/Summary.tsx',
  'flow/PromoField.tsx',
  'flow/EmailField.tsx',
  'flow/useQuote.ts',
  'flow/options.ts',
  'flow/order.ts',
  'flow/Waiting.tsx',
  'flow/Success.tsx',
  'flow/CopyButton.tsx',
  'flow/iconsMore.tsx',
  'flow/ViewsMore.tsx',
].map((p) => join(SRC, p));

/**
 * Modules the script-tag builds replace with a variant (vite.config.ts applies them; the import scan
 * follows them): importer path under src/ → import source → the variant under src/.
 */
export const SWAPS: Record<string, Record<string, string>> = {
  'i18n/messages.ts': { './english': 'i18n/english.lazy.ts' },
  'flow/App.tsx': { '../checkout/parts': 'checkout/parts.lazy.tsx' },
  'api/client.ts': { './later': 'api/later.lazy.ts' },
};

/** The variant a script-tag build uses for `source` imported by `importer`, or null. */
export function swapped(importer: string, source: string): string | null {
  if (!importer.startsWith(SRC)) return null;
  const to = SWAPS[relative(SRC, importer)]?.[source];
  return to ? join(SRC, to) : null;
}

/**
 * Stateless first-script modules of which the chunk bundles its own copy of what it uses, so the
 * first script does not keep exports only the chunk needs (the summary's currency conversion).
 */
export const CHECKOUT_COPIES: readonly string[] = ['i18n/format.ts'].map((p) => join(SRC, p));

const local = new Set(CHECKOUT_MODULES);
const isLocal = (path: string) => local.has(path);
const bundled = new Set([...CHECKOUT_MODULES, ...CHECKOUT_COPIES]);
const inChunk = (path: string) => bundled.has(path);

const REMOTE = '\0streamcart-remote:';
const KIT = '\0streamcart-checkout-kit';
const KIT_ID = 'virtual:streamcart-checkout-kit';
const REMOTE_TS = join(SRC, 'checkout/remote.ts');

// React crosses whole: the chunk gets the page's React and JSX runtime namespaces (the after-sale
// loader hands them on), so the stand-ins export every name of React's production build.
const load = createRequire(import.meta.url);
const reactDir = dirname(load.resolve('react/package.json'));
const REACT_NAMES: Record<string, string[]> = {
  react: Object.keys(load(join(reactDir, 'cjs/react.production.js')) as object),
  'react/jsx-runtime': Object.keys(load(join(reactDir, 'cjs/react-jsx-runtime.production.js')) as object),
};

/** A relative import of a source file resolved to its path (extension added), or null. */
function resolveSource(importer: string, source: string): string | null {
  const swap = swapped(importer, source);
  if (swap) return swap;
  if (!source.startsWith('.')) return null;
  const base = resolve(dirname(importer), source.replace(/\?.*$/, ''));
  for (const p of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  return null;
}

// import { a, b as c, type T } from '…' / export { a } from '…' / import * as m from '…' / import x from '…'
const STATEMENT =
  /(?:^|[\n;])\s*(import|export)\s+(type\s+)?(\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+(?:\s*,\s*(?:\{[^}]*\}|\*\s+as\s+[\w$]+))?)\s*from\s*['"]([^'"]+)['"]/g;
const BARE = /(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]/g;

/**
 * What dist/checkout.js takes from the first script: for every first-script module (keyed by its path
 * under src/), the names the chunk's modules import; React and its JSX runtime cross whole.
 */
export function scanCheckoutImports(): Map<string, Set<string>> {
  const wanted = new Map<string, Set<string>>(Object.entries(REACT_NAMES).map(([k, names]) => [k, new Set(names)]));
  for (const importer of bundled) {
    const code = readFileSync(importer, 'utf8');
    const where = relative(ROOT, importer);
    for (const m of code.matchAll(BARE)) {
      const target = resolveSource(importer, m[1]!);
      if (target && /\.tsx?$/.test(target) && !inChunk(target))
        throw new Error(`${where}: side-effect import of ${m[1]} from the first script`);
    }
    for (const m of code.matchAll(STATEMENT)) {
      const [, , typeOnly, clause, source] = m as unknown as [string, string, string | undefined, string, string];
      if (typeOnly || source in REACT_NAMES) continue;
      const target = resolveSource(importer, source);
      if (!target || !/\.tsx?$/.test(target) || inChunk(target)) continue;
      if (!clause.startsWith('{')) throw new Error(`${where}: only named imports of ${source} can cross into dist/checkout.js`);
      const names = clause
        .slice(1, -1)
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('type '))
        .map((s) => s.split(/\s+as\s+/)[0]!.trim());
      if (!names.length) continue;
      const key = relative(SRC, target);
      const set = wanted.get(key) ?? new Set<string>();
      for (const n of names) set.add(n);
      wanted.set(key, set);
    }
  }
  return wanted;
}

/**
 * `--mode checkout`: imports of React and of first-script modules become stand-ins reading the kit.
 * The chunk must not bundle a module of its own copy of React, nor reach a first-script module by
 * any other way.
 */
export function checkoutChunk(): Plugin {
  let wanted = new Map<string, Set<string>>();
  return {
    name: 'streamcart-checkout-chunk',
    enforce: 'pre',
    buildStart() {
      wanted = scanCheckoutImports();
    },
    resolveId(source, importer) {
      if (!importer || importer.startsWith('\0')) return null;
      if (source in REACT_NAMES) {
        if (!importer.startsWith(SRC)) this.error(`${importer} imports ${source}: only src/ may use the page's React`);
        return REMOTE + source;
      }
      if (!importer.startsWith(SRC)) return null;
      const target = resolveSource(importer, source);
      if (!target || !/\.tsx?$/.test(target)) return null;
      if (inChunk(target)) return target;
      const key = relative(SRC, target);
      if (!wanted.has(key)) this.error(`${importer} imports ${source}, which the import scan did not see`);
      return REMOTE + key;
    },
    load(id) {
      if (!id.startsWith(REMOTE)) return null;
      const key = id.slice(REMOTE.length);
      const names = [...(wanted.get(key) ?? [])];
      return `import { take } from ${JSON.stringify(REMOTE_TS)};\nexport const { ${names.join(', ')} } = take(${JSON.stringify(key)});\n`;
    },
  };
}

/**
 * The first script's side: `virtual:streamcart-checkout-kit` exports the kit (the very objects the
 * chunk's stand-ins read), and no module of dist/checkout.js may be bundled into the first script.
 */
export function checkoutKit(): Plugin {
  let wanted = new Map<string, Set<string>>();
  return {
    name: 'streamcart-checkout-kit',
    enforce: 'pre',
    buildStart() {
      wanted = scanCheckoutImports();
    },
    resolveId(source, importer) {
      if (source === KIT_ID) return KIT;
      if (!importer || !importer.startsWith(SRC)) return null;
      // The after-sale chunk (a native import() of this build, loaded only once dist/checkout.js is
      // there: checkout/parts.lazy.tsx) bundles its own copy of the checkout modules it uses.
      if (isLocal(importer) || importer.startsWith(join(SRC, 'aftersale/'))) return null;
      const target = resolveSource(importer, source);
      if (target && isLocal(target))
        this.error(`${importer} imports ${source}, which belongs to dist/checkout.js (scripts/checkout-split.ts)`);
      return null;
    },
    load(id) {
      if (id !== KIT) return null;
      const imports: string[] = [];
      const entries: string[] = [];
      let n = 0;
      for (const [key, names] of wanted) {
        if (key in REACT_NAMES) {
          imports.push(`import * as k${n} from ${JSON.stringify(key)};`);
          entries.push(`${JSON.stringify(key)}: k${n++}`);
          continue;
        }
        const from = join(SRC, key);
        const pairs = [...names].map((name) => [name, `k${n++}`] as const);
        imports.push(`import { ${pairs.map(([name, alias]) => `${name} as ${alias}`).join(', ')} } from ${JSON.stringify(from)};`);
        entries.push(`${JSON.stringify(key)}: { ${pairs.map(([name, alias]) => `${name}: ${alias}`).join(', ')} }`);
      }
      return `${imports.join('\n')}\nexport default { ${entries.join(', ')} };\n`;
    },
  };
}

// ---- CSS ------------------------------------------------------------------------------------------

/** Marks where the other build's parts go: an empty comment, which minified CSS never contains. */
export const CSS_SEPARATOR = '/**/';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/**
 * The class names the first script's markup may use: every `sc-…` token in its source files (all
 * of src/ but dist/checkout.js, the after-sale screens, which only run from it, and tests). A token
 * ending in "-" is a prefix (`sc-status-${…}`).
 */
function firstScriptClasses(): (name: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const f of walk(SRC)) {
    if (!/\.tsx?$/.test(f) || isLocal(f) || f.includes('/test/') || /\.test\.tsx?$/.test(f) || f.startsWith(join(SRC, 'aftersale/')))
      continue;
    for (const m of readFileSync(f, 'utf8').matchAll(/sc-[a-z0-9-]+/g)) {
      if (m[0].endsWith('-')) prefixes.push(m[0]);
      else exact.add(m[0]);
    }
  }
  return (name) => exact.has(name) || prefixes.some((p) => name.startsWith(p));
}

/** Splits a selector list on its top-level commas. */
function selectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

/**
 * A rule only for the chunk: each of its selectors needs a class that only the chunk's markup uses.
 * Classes inside :not(), :is(), :where() and :has() are not required for a match and are ignored.
 */
function chunkOnly(selectorList: string, first: (name: string) => boolean): boolean {
  return selectors(selectorList).every((sel) => {
    let s = sel;
    for (let prev = ''; prev !== s;) {
      prev = s;
      s = s.replace(/\([^()]*\)/g, '');
    }
    const classes = [...s.matchAll(/\.(sc-[\w-]+)/g)].map((m) => m[1]!);
    return classes.some((c) => !first(c));
  });
}

/** Index of the brace closing the one at `open` (minified CSS: strings hold no braces we care about). */
function closing(css: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < css.length; i++) {
    const ch = css[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  throw new Error('unbalanced braces in the widget CSS');
}

type Piece = { chunk: boolean; text: string };

/** Minified CSS → pieces in source order, each for the first script or the chunk. */
function pieces(css: string, first: (name: string) => boolean): Piece[] {
  const out: Piece[] = [];
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    const semi = css.indexOf(';', i);
    if (open < 0 || (semi >= 0 && semi < open)) {
      // A statement at-rule (@import, @layer a,b;): keep it where it is, in the first script.
      const end = semi < 0 ? css.length : semi + 1;
      out.push({ chunk: false, text: css.slice(i, end) });
      i = end;
      continue;
    }
    const prelude = css.slice(i, open);
    const close = closing(css, open);
    const body = css.slice(open + 1, close);
    if (/^@(media|container|supports|layer)\b/.test(prelude)) {
      // A conditional group: its rules are split the same way, each run in its own copy of the group.
      for (const run of merge(pieces(body, first))) out.push({ chunk: run.chunk, text: `${prelude}{${run.text}}` });
    } else if (prelude.startsWith('@')) {
      out.push({ chunk: false, text: css.slice(i, close + 1) }); // @keyframes, @font-face, @property
    } else {
      out.push({ chunk: chunkOnly(prelude, first), text: css.slice(i, close + 1) });
    }
    i = close + 1;
  }
  return out;
}

function merge(list: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of list) {
    const last = out.at(-1);
    if (last && last.chunk === p.chunk) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

/**
 * Splits the minified widget CSS: the first script's rules and the chunk's, each as parts joined by
 * CSS_SEPARATOR. Interleaving them (first[0] + chunk[0] + first[1] + …) gives back the whole sheet
 * in its original order, so the cascade is the same once the chunk is there.
 */
export function splitCss(css: string, first: (name: string) => boolean = firstScriptClasses()): { first: string; chunk: string } {
  const runs = merge(pieces(css, first));
  const firstParts: string[] = [];
  const chunkParts: string[] = [];
  if (runs[0]?.chunk) firstParts.push('');
  for (const run of runs) {
    if (run.chunk) chunkParts.push(run.text);
    else firstParts.push(run.text);
  }
  if (firstParts.length === chunkParts.length) firstParts.push('');
  if (css.includes(CSS_SEPARATOR)) throw new Error('the widget CSS contains an empty comment');
  return { first: firstParts.join(CSS_SEPARATOR), chunk: chunkParts.join(CSS_SEPARATOR) };
}

/**
 * Rewrites `src/styles/widget.css?inline` (after Vite has minified it) to the part a build ships:
 * the first script's rules, or dist/checkout.js's.
 */
export function cssSplit(part: 'first' | 'chunk'): Plugin {
  return {
    name: `streamcart-css-split-${part}`,
    enforce: 'post',
    transform(code, id) {
      if (!id.endsWith('/src/styles/widget.css?inline')) return null;
      const m = /^export default ("(?:[^"\\]|\\.)*")\s*;?\s*$/.exec(code);
      if (!m) this.error(`unexpected shape of ${id}: ${code.slice(0, 40)}`);
      const css = JSON.parse(m[1]!) as string;
      return { code: `export default ${JSON.stringify(splitCss(css)[part])};`, map: null };
    },
  };
}
