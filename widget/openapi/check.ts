// The widget's API contract checked against the served OpenAPI document: openapi.gen.ts is made
// from api/httpapi/openapi3.json by openapi-typescript (make lint-openapi), and every answer the
// widget reads must be accepted by the valibot schema it parses that answer with. A field renamed,
// retyped or dropped on either side fails tsc.
import type * as v from 'valibot';
import type { paths } from './openapi.gen';
import type { GeoSchema, OrderSchema, PromotionSchema, ServiceSchema, SessionSchema } from '../src/api/orders';
import type {
  ErrorBodySchema,
  ProductListSchema,
  ProductSchema,
  StorefrontSchema,
  CurrencyListSchema,
  GatewayListSchema,
  QuoteSchema,
} from '../src/api/schemas';
import type {
  InvoicePaymentSchema,
  InvoiceSchema,
  OfferListSchema,
  ResellerMeSchema,
  ResellerOrderSchema,
  ResellerServiceSchema,
  ServiceListSchema,
  UpsellOrderSchema,
  UpsellQuoteSchema,
} from '../src/api/aftersale';

type Path = keyof paths;
type Method = 'get' | 'post' | 'put' | 'delete';

/** The JSON body the document gives path's method at status (never when it gives none). */
type Body<P extends Path, M extends Method, S extends number> = paths[P][M] extends {
  responses: infer R;
}
  ? S extends keyof R
    ? R[S] extends { content: { 'application/json': infer B } }
      ? B
      : never
    : never
  : never;

/** true when the server's answer is one the widget's schema accepts. */
type Accepts<Schema extends v.GenericSchema, Server> = [Server] extends [never]
  ? 'the document has no such answer'
  : Server extends v.InferInput<Schema>
    ? true
    : { server: Server; widget: v.InferInput<Schema> };

type Expect<T extends true> = T;

export type Checks = [
  Expect<Accepts<typeof ProductListSchema, Body<'/checkout/api/products', 'get', 200>>>,
  Expect<Accepts<typeof ProductListSchema, Body<'/checkout/api/resellers/products', 'get', 200>>>,
  Expect<Accepts<typeof ProductSchema, Body<'/checkout/api/products/{pid}', 'get', 200>>>,
  Expect<Accepts<typeof StorefrontSchema, Body<'/checkout/api/storefront', 'get', 200>>>,
  Expect<Accepts<typeof CurrencyListSchema, Body<'/checkout/api/currencies', 'get', 200>>>,
  Expect<Accepts<typeof GatewayListSchema, Body<'/checkout/api/gateways', 'get', 200>>>,
  Expect<Accepts<typeof GeoSchema, Body<'/checkout/api/geo', 'get', 200>>>,
  Expect<Accepts<typeof PromotionSchema, Body<'/checkout/api/promotions/{code}', 'get', 200>>>,
  Expect<Accepts<typeof QuoteSchema, Body<'/checkout/api/quote', 'post', 200>>>,
  Expect<Accepts<typeof SessionSchema, Body<'/checkout/api/session', 'post', 201>>>,
  Expect<Accepts<typeof SessionSchema, Body<'/checkout/api/session/link/{token}', 'post', 201>>>,
  Expect<Accepts<typeof OrderSchema, Body<'/checkout/api/orders', 'post', 201>>>,
  Expect<Accepts<typeof OrderSchema, Body<'/checkout/api/orders/{orderId}', 'get', 200>>>,
  Expect<Accepts<typeof OrderSchema, Body<'/checkout/api/orders/{orderId}/cancel', 'post', 200>>>,
  Expect<Accepts<typeof ServiceListSchema, Body<'/checkout/api/services', 'get', 200>>>,
  Expect<Accepts<typeof ServiceSchema, Body<'/checkout/api/services/{serviceId}', 'get', 200>>>,
  Expect<Accepts<typeof ServiceSchema, Body<'/checkout/api/services/{serviceId}/mac', 'put', 200>>>,
  Expect<Accepts<typeof OrderSchema, Body<'/checkout/api/services/{serviceId}/renew', 'post', 201>>>,
  Expect<Accepts<typeof ServiceSchema, Body<'/checkout/api/services/{serviceId}/cancel', 'post', 200>>>,
  Expect<Accepts<typeof ServiceSchema, Body<'/checkout/api/services/{serviceId}/resume', 'post', 200>>>,
  Expect<Accepts<typeof InvoiceSchema, Body<'/checkout/api/invoices/{invoiceId}', 'get', 200>>>,
  Expect<Accepts<typeof InvoicePaymentSchema, Body<'/checkout/api/invoices/{invoiceId}/pay', 'post', 200>>>,
  Expect<Accepts<typeof OfferListSchema, Body<'/checkout/api/upsell/offers', 'get', 200>>>,
  Expect<Accepts<typeof UpsellQuoteSchema, Body<'/checkout/api/upsell/quote', 'post', 200>>>,
  Expect<Accepts<typeof UpsellOrderSchema, Body<'/checkout/api/upsell/orders', 'post', 201>>>,
  Expect<Accepts<typeof ResellerMeSchema, Body<'/checkout/api/resellers/me', 'get', 200>>>,
  Expect<Accepts<typeof ResellerOrderSchema, Body<'/checkout/api/resellers/orders', 'post', 201>>>,
  Expect<Accepts<typeof ResellerServiceSchema, Body<'/checkout/api/resellers/services/{serviceId}', 'get', 200>>>,
  // Error answers: Goa's error body and the two with bodies of their own.
  Expect<Accepts<typeof ErrorBodySchema, Body<'/checkout/api/orders', 'post', 409>>>,
  Expect<Accepts<typeof ErrorBodySchema, Body<'/checkout/api/session', 'post', 429>>>,
  Expect<Accepts<typeof ErrorBodySchema, Body<'/checkout/api/session', 'post', 401>>>,
  Expect<Accepts<typeof ErrorBodySchema, Body<'/checkout/api/quote', 'post', 413>>>,
];
