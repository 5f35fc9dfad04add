// What the shared components show, from the shared API fixtures and read through the widget's own
// schemas (as the client reads an answer): the catalog's plans, its currencies, and quotes priced
// the way the fetch mock prices POST /quote.
import * as v from 'valibot';
import { CurrencyListSchema, ProductListSchema, QuoteSchema, type CurrencyList, type Product, type Quote } from '../../api/schemas';
import { body } from '../api/fixtures';
import { defaultReply } from '../api/mock';

/** The plan cards of the catalog fixture (Free Trial, Standard, Premium). */
export function plans(): Product[] {
  return v.parse(ProductListSchema, body('catalog.listProducts', '200')).products.filter((p) => p.group === 'plan');
}

export function currencies(): CurrencyList {
  return v.parse(CurrencyListSchema, body('catalog.listCurrencies', '200'));
}

export interface QuoteRequest {
  pid: number;
  billingCycle: string;
  currency?: string;
  extraConnections?: number;
  proxyProtection?: boolean;
  promoCode?: string;
}

/** POST /quote's answer for `req`; a request the server refuses is a broken story or test. */
export function quote(req: QuoteRequest): Quote {
  const reply = defaultReply({
    op: 'pricing.quote',
    method: 'POST',
    url: 'http://localhost/checkout/api/quote',
    path: '/quote',
    params: {},
    query: new URLSearchParams(),
    headers: new Headers(),
    body: { currency: currencies().default, ...req },
  });
  if (reply.status !== 200) throw new Error(`POST /quote ${JSON.stringify(req)}: ${reply.status}`);
  return v.parse(QuoteSchema, reply.body);
}
