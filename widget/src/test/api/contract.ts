// The API contract as zod schemas, derived at load time from Goa's OpenAPI 3 document
// (api/httpapi/openapi3.json): nothing is copied by hand, so a fixture or a mocked answer that
// drifts from the design fails validation. The widget's tests and Storybook both import it.
import { z } from 'zod';

type Node = unknown;
type Schema = z.ZodType;
interface OpenApiOperation {
  operationId: string;
  responses?: Record<string, { description?: string; content?: Record<string, { schema: Node }> }>;
  requestBody?: { content?: Record<string, { schema: Node }> };
  parameters?: { $ref?: string; in?: string; name?: string; schema?: { type?: string } }[];
  security?: unknown[];
}
export interface OpenApiDocument {
  components: { schemas: Record<string, Node> };
  paths: Record<string, Record<string, OpenApiOperation>>;
}
export interface Operation {
  key: string;
  method: string;
  path: string;
  pattern: RegExp;
  params: string[];
  responses: Map<number, { description: string; contentType: string | null; schema: (() => Schema) | null }>;
  request: (() => Schema) | null;
  /** The path and query parameters by name, each with its schema. */
  parameters: Map<string, { in: 'path' | 'query'; integer: boolean; boolean: boolean; schema: () => Schema }>;
  /** The operation wants a session (Authorization: Bearer …); without one the server answers 401. */
  secured: boolean;
}
export type Contract = ReturnType<typeof loadContract>;

const COMPONENTS = '#/components/schemas/';

/**
 * Rewrites OpenAPI's component refs to the JSON Schema `definitions` zod resolves, and closes every
 * object that lists its properties: Goa's bodies carry exactly those, so an unknown key in a
 * fixture (a renamed or removed field) is drift, not noise.
 */
function normalize(node: Node): Node {
  if (Array.isArray(node)) return node.map(normalize);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'example' || k === 'examples') continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENTS)) out.$ref = `#/definitions/${v.slice(COMPONENTS.length)}`;
    else out[k] = normalize(v);
  }
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** "catalog#listProducts" → "catalog.listProducts" (the fixture folder name). */
export function operationKey(operationId: string): string {
  return operationId.replace('#', '.');
}

/**
 * loadContract turns the OpenAPI document into operations, each with a zod schema per response
 * status, one for the request body and one per path or query parameter, and a matcher from method +
 * URL path to operation.
 */
export function loadContract(doc: OpenApiDocument) {
  const definitions = normalize(doc.components.schemas) as Record<string, Node>;
  const registry = z.registry();
  const compile = (schema: Node): Schema =>
    z.fromJSONSchema(
      { definitions, ...(normalize(schema) as object) },
      {
        defaultTarget: 'openapi-3.0',
        registry,
      },
    );

  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    // /checkout/api/orders/{orderId} → ^/checkout/api/orders/([^/]+)$
    const pattern = new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '([^/]+)')}$`);
    const params = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    for (const [method, op] of Object.entries(item)) {
      const key = operationKey(op.operationId);
      const responses: Operation['responses'] = new Map();
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        const content = Object.entries(res.content ?? {})[0];
        responses.set(Number(status), {
          description: res.description ?? '',
          contentType: content?.[0] ?? null,
          // Compiled on first use: most stories touch a handful of operations.
          schema: content ? lazy(() => compile(content[1].schema)) : null,
        });
      }
      const body = op.requestBody?.content?.['application/json']?.schema;
      const parameters: Operation['parameters'] = new Map();
      for (const p of op.parameters ?? []) {
        // Headers (and the $ref'd Streamcart-Store header) are not checked: only path and query.
        if ((p.in !== 'path' && p.in !== 'query') || !p.name || !p.schema) continue;
        const schema = p.schema;
        parameters.set(p.name, {
          in: p.in,
          integer: schema.type === 'integer',
          boolean: schema.type === 'boolean',
          schema: lazy(() => compile(schema)),
        });
      }
      operations.set(key, {
        key,
        method: method.toUpperCase(),
        path,
        pattern,
        params,
        responses,
        request: body ? lazy(() => compile(body)) : null,
        parameters,
        secured: (op.security?.length ?? 0) > 0,
      });
    }
  }

  return {
    operations,
    /** The operation a request goes to, with its path parameters, or null. */
    match(method: string, pathname: string): { op: Operation; params: Record<string, string> } | null {
      // The most literal template wins, as in the server's router: /invoices/{id}.pdf over /invoices/{id}.
      let best: { op: Operation; m: RegExpExecArray; literal: number } | null = null;
      for (const op of operations.values()) {
        if (op.method !== method.toUpperCase()) continue;
        const m = op.pattern.exec(pathname);
        const literal = op.pattern.source.replace(/\(\[\^\/\]\+\)/g, '').length;
        if (m && (!best || literal > best.literal)) best = { op, m, literal };
      }
      if (!best) return null;
      const { op, m } = best;
      return { op, params: Object.fromEntries(op.params.map((p, i) => [p, decodeURIComponent(m[i + 1]!)])) };
    },
    /** Problems of a response body for operation `key` and `status` (empty when it conforms). */
    checkResponse(key: string, status: number, body: unknown): string[] {
      const op = operations.get(key);
      if (!op) return [`unknown operation ${key}`];
      const res = op.responses.get(status);
      if (!res) return [`${key} declares no ${status} response (it has ${[...op.responses.keys()].join(', ')})`];
      if (!res.schema) return body === undefined || body === null ? [] : [`${key} ${status} has no body in the contract`];
      if (res.contentType !== 'application/json' && res.contentType !== 'application/vnd.goa.error') return [];
      return issues(res.schema().safeParse(body));
    },
    /**
     * Problems of a request's path parameters (as `match` gives them) and query: a value the server
     * would refuse (400), or a query parameter the operation does not declare (the server ignores it).
     */
    checkParameters(key: string, path: Record<string, string>, query: URLSearchParams): string[] {
      const op = operations.get(key);
      if (!op) return [`unknown operation ${key}`];
      const values: [string, 'path' | 'query', string][] = [
        ...Object.entries(path).map(([n, v]): [string, 'path', string] => [n, 'path', v]),
        ...[...query].map(([n, v]): [string, 'query', string] => [n, 'query', v]),
      ];
      return values.flatMap(([name, where, raw]) => {
        const p = op.parameters.get(name);
        if (!p || p.in !== where) return [`${where} parameter ${name}: not declared by ${key}`];
        // Parameters travel as text; Goa parses an integer one from its digits, a boolean one from true or false.
        const value = p.integer && /^-?\d+$/.test(raw) ? Number(raw) : p.boolean && /^(true|false)$/.test(raw) ? raw === 'true' : raw;
        return issues(p.schema().safeParse(value)).map((i) => `${where} parameter ${name}=${raw}: ${i.replace(/^\(body\): /, '')}`);
      });
    },
    /**
     * Problems of a request body sent to `key`: `errors` the server would refuse, `unknown` fields
     * the contract does not declare (Goa's decoder drops them, so they reach nobody).
     */
    checkRequest(key: string, body: unknown): { errors: string[]; unknown: string[] } {
      const op = operations.get(key);
      if (!op) return { errors: [`unknown operation ${key}`], unknown: [] };
      if (!op.request) return { errors: body === undefined || body === null ? [] : [`${key} takes no body`], unknown: [] };
      const result = op.request().safeParse(body);
      if (result.success) return { errors: [], unknown: [] };
      const unknown = result.error.issues.filter((i) => i.code === 'unrecognized_keys');
      return {
        errors: describe(result.error.issues.filter((i) => i.code !== 'unrecognized_keys')),
        unknown: unknown.flatMap((i) => i.keys.map((k) => [...i.path, k].join('.'))),
      };
    },
  };
}

function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

function issues(result: z.ZodSafeParseResult<unknown>): string[] {
  return result.success ? [] : describe(result.error.issues);
}

function describe(list: z.core.$ZodIssue[]): string[] {
  return list.map((i) => `${i.path.length ? i.path.join('.') : '(body)'}: ${i.message}`);
}

/** "200.empty.json" → { status: 200, variant: "empty" }; null for another name. */
export function parseFixtureName(file: string): { status: number; variant: string } | null {
  const m = /^(\d{3})(?:\.([a-z0-9-]+))?\.json$/.exec(file);
  return m ? { status: Number(m[1]), variant: m[2] ?? '' } : null;
}
