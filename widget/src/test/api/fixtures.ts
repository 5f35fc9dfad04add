/// <reference types="vite/client" />
// The JSON fixtures, by "<operation>/<status>[.<variant>]" (e.g. "order.get/200.fraud"). Each is a
// response of the contract; test/contract.test.js checks them all against api/httpapi/openapi3.json.
import { parseFixtureName } from './contract';

const files = import.meta.glob<unknown>('./fixtures/*/*.json', { eager: true, import: 'default' });

export interface Fixture {
  op: string;
  status: number;
  variant: string;
  body: unknown;
}

export const FIXTURES = new Map<string, Fixture>();
for (const [path, body] of Object.entries(files)) {
  const m = /fixtures\/([^/]+)\/([^/]+)$/.exec(path);
  const name = m && parseFixtureName(m[2]!);
  if (!m || !name) throw new Error(`fixture ${path}: expected fixtures/<operation>/<status>[.<variant>].json`);
  FIXTURES.set(`${m[1]}/${m[2]!.replace(/\.json$/, '')}`, { op: m[1]!, status: name.status, variant: name.variant, body });
}

/** The fixture `name` ("200.fraud") of operation `op`; a missing one is a broken story. */
export function fixture(op: string, name: string): Fixture {
  const f = FIXTURES.get(`${op}/${name}`);
  if (!f) throw new Error(`no fixture fixtures/${op}/${name}.json`);
  return f;
}

/** A deep copy of a fixture's body, to derive an answer from. */
export function body<T = Record<string, unknown>>(op: string, name: string): T {
  return structuredClone(fixture(op, name).body) as T;
}

/** The locale's variant of a catalog fixture ("200.de-de"), else the base one ("200"). */
export function localized(op: string, status: number, locale: string | null): Fixture {
  return (locale && FIXTURES.get(`${op}/${status}.${locale}`)) || fixture(op, String(status));
}
