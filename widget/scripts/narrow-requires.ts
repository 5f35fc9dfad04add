// A build plugin: lets the bundler drop the exports of a CommonJS module that other CommonJS
// modules require() but never read.
//
// Why: rolldown removes a CommonJS module's unused `exports.x = …` when ES modules import it by
// name, but keeps every export once any CommonJS module require()s it, since it cannot see which
// members are read. React ships as CommonJS and react-dom's client requires "react", "react-dom" and
// "scheduler" for a few members each, so all of React's exports stayed in the first script
// (Children, cloneElement, PureComponent, preload, preinit, useFormStatus…): 1.4 KB brotli.
//
// How: in the files it is given, a top-level `var X = require("m")` whose X is only ever read as
// `X.name` (or called as `X.name(…)`) is rewritten to require a one-line ES module that re-exports
// just those names from "m"; the bundler then sees named imports and drops the rest. Any other use
// of X (handed on, destructured, read with a computed key, written to) leaves that require as it
// is. A call `X.f()` then runs with the re-exporting module as `this`, so the plugin is only given
// modules whose exported functions do not read `this` (React's, which are plain functions).
//
// Also: a CommonJS module that reads its own `exports` keeps all of them, used or not (scheduler
// reads `exports.unstable_now`, which it assigns in an if/else: unstable_next, unstable_wrapCallback,
// unstable_runWithPriority… stayed, 0.7 KB). settleExports keeps such an export in a local variable
// and assigns it to `exports` once, at the end, so the module no longer reads `exports`.
import type { Node } from 'estree';
import { parseAst, type Plugin } from 'vite';

const PREFIX = '\0narrow-requires:';

interface Required {
  spec: string;
  /** The string literal to replace: start and end offsets in the source. */
  start: number;
  end: number;
  names: Set<string>;
  whole: boolean;
  declared: Node;
}

type Ranged = Node & { start: number; end: number };

function isNode(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

/** Visits every node under `node` with its parent, depth first. */
function walk(node: Node, parent: Node | null, visit: (node: Node, parent: Node | null) => void): void {
  visit(node, parent);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const child of value) if (isNode(child)) walk(child, node, visit);
    } else if (isNode(value)) walk(value, node, visit);
  }
}

/** The module-level `X = require("m")` bindings of a program. */
function requires(program: Node): Map<string, Required> {
  const found = new Map<string, Required>();
  if (program.type !== 'Program') return found;
  for (const statement of program.body) {
    if (statement.type !== 'VariableDeclaration') continue;
    for (const { id, init } of statement.declarations) {
      if (id.type !== 'Identifier' || init?.type !== 'CallExpression') continue;
      const [arg, ...rest] = init.arguments;
      if (init.callee.type !== 'Identifier' || init.callee.name !== 'require' || rest.length) continue;
      if (arg?.type !== 'Literal' || typeof arg.value !== 'string') continue;
      const { start, end } = arg as Ranged;
      found.set(id.name, { spec: arg.value, start, end, names: new Set(), whole: false, declared: id });
    }
  }
  return found;
}

/** Whether the member expression `member`, whose parent is `above`, is read (not written or deleted). */
function readOnly(member: Node, above: Node | undefined): boolean {
  if (!above) return true;
  if (above.type === 'AssignmentExpression' && above.left === member) return false;
  if (above.type === 'UpdateExpression') return false;
  if (above.type === 'UnaryExpression' && above.operator === 'delete') return false;
  return true;
}

/**
 * The source of the module `from` with each narrowable require() pointing at its re-exporting
 * module, or null when nothing could be narrowed. Exported for the tests.
 */
export function narrow(code: string, from: string): string | null {
  const program = parseAst(code) as Node;
  const bindings = requires(program);
  if (!bindings.size) return null;
  const parents = new Map<Node, Node | null>();
  walk(program, null, (node, parent) => parents.set(node, parent));
  for (const [node, parent] of parents) {
    if (node.type !== 'Identifier' || !parent) continue;
    const binding = bindings.get(node.name);
    if (!binding || node === binding.declared) continue;
    // Not a reference to the binding: a member's or a property's name.
    if (parent.type === 'MemberExpression' && parent.property === node && !parent.computed) continue;
    if (parent.type === 'Property' && parent.key === node && !parent.computed && !parent.shorthand) continue;
    if (parent.type === 'MemberExpression' && parent.object === node && !parent.computed) {
      const name = parent.property.type === 'Identifier' ? parent.property.name : null;
      if (name && readOnly(parent, parents.get(parent) ?? undefined)) {
        binding.names.add(name);
        continue;
      }
    }
    binding.whole = true;
  }
  const narrowed = [...bindings.values()].filter((b) => !b.whole && b.names.size).sort((a, b) => b.start - a.start);
  if (!narrowed.length) return null;
  let out = code;
  for (const b of narrowed) {
    const id = PREFIX + JSON.stringify({ spec: b.spec, from, names: [...b.names].sort() });
    out = out.slice(0, b.start) + JSON.stringify(id) + out.slice(b.end);
  }
  return out;
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Whether any of node's ancestors is a function. */
function inFunction(node: Node, parents: Map<Node, Node | null>): boolean {
  for (let p = parents.get(node); p; p = parents.get(p)) if (FUNCTIONS.has(p.type)) return true;
  return false;
}

/**
 * The source with each export the module reads back, or assigns more than once, kept in a local
 * variable that is assigned to `exports` once at the end; null when there is none. Only an export
 * assigned with `=` outside any function qualifies: its value is then final once the module has
 * run, which is when a requirer reads it, so moving the assignment to the end changes nothing. A
 * module that declares its own `exports` is left alone. Exported for the tests.
 */
export function settleExports(code: string): string | null {
  const program = parseAst(code) as Node;
  const parents = new Map<Node, Node | null>();
  walk(program, null, (node, parent) => parents.set(node, parent));
  const uses = new Map<string, { members: Ranged[]; writes: number; reads: number; settles: boolean }>();
  for (const [node, parent] of parents) {
    if (node.type !== 'Identifier' || node.name !== 'exports' || !parent) continue;
    if (parent.type !== 'MemberExpression' || parent.object !== node) {
      if (parent.type === 'MemberExpression' && parent.property === node && !parent.computed) continue;
      if (parent.type === 'Property' && parent.key === node && !parent.computed && !parent.shorthand) continue;
      return null; // declared, handed on or destructured: not only read by member
    }
    const name = !parent.computed && parent.property.type === 'Identifier' ? parent.property.name : null;
    if (!name) return null;
    const use = uses.get(name) ?? { members: [], writes: 0, reads: 0, settles: true };
    uses.set(name, use);
    use.members.push(parent as Ranged);
    const above = parents.get(parent) ?? undefined;
    if (readOnly(parent, above)) {
      use.reads++;
      continue;
    }
    use.writes++;
    const plain = above?.type === 'AssignmentExpression' && above.operator === '=';
    if (!plain || inFunction(above, parents)) use.settles = false;
  }
  const settled = [...uses].filter(([, u]) => u.settles && u.writes > 0 && (u.reads > 0 || u.writes > 1));
  const locals = settled.map(([name]) => [name, `__exports_${name}`] as const).filter(([, local]) => !code.includes(local));
  if (!locals.length) return null;
  const edits = locals
    .flatMap(([name, local]) => (uses.get(name)?.members ?? []).map((m) => ({ start: m.start, end: m.end, local })))
    .sort((a, b) => b.start - a.start);
  let out = code;
  for (const e of edits) out = out.slice(0, e.start) + e.local + out.slice(e.end);
  // `var` at the end still declares the local for the whole module, and keeps a leading "use strict".
  const declare = `var ${locals.map(([, local]) => local).join(', ')};`;
  const assign = locals.map(([name, local]) => `exports.${name} = ${local};`);
  return [out, declare, ...assign, ''].join('\n');
}

interface Narrowed {
  spec: string;
  /** The module that required it: `spec` is resolved from there, as require() would. */
  from: string;
  names: string[];
}

function parseId(id: string): Narrowed | null {
  return id.startsWith(PREFIX) ? (JSON.parse(id.slice(PREFIX.length)) as Narrowed) : null;
}

/** The re-exporting module behind a narrowed require() id. Exported for the tests. */
export function reexport(id: string): string | null {
  const narrowed = parseId(id);
  return narrowed && `export { ${narrowed.names.join(', ')} } from ${JSON.stringify(narrowed.spec)};`;
}

/** React's own CommonJS files (react, react-dom, scheduler): their exports never read `this`. */
export const REACT = /\/node_modules\/(react|react-dom|scheduler)\/cjs\//;

/** The plugin, for the CommonJS files whose path matches `include`. */
export function narrowRequires(include: RegExp): Plugin {
  return {
    name: 'streamcart:narrow-requires',
    resolveId(source, importer) {
      if (source.startsWith(PREFIX)) return source;
      const narrowed = importer ? parseId(importer) : null;
      return narrowed ? this.resolve(source, narrowed.from, { skipSelf: true }) : null;
    },
    load: (id) => reexport(id),
    transform(code, id) {
      if (!include.test(id)) return null;
      const settled = settleExports(code);
      const out = narrow(settled ?? code, id) ?? settled;
      return out === null ? null : { code: out, map: null };
    },
  };
}
