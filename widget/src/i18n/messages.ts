// The texts: one typed table per locale and area (i18n/<locale>/<area>.ts; en/ is the reference,
// so a missing key is a `tsc` error), and their one loader. English plan-page texts ship in the first
// script; every other table is a native import(), its own small chunk, fetched the first time a
// screen of its area renders in that locale (screens/index.tsx) or the buyer switches to the locale.
import { texts as enPlans, type PlansTexts } from './en/plans';
import type { CheckoutTexts } from './en/checkout';
import type { OrderTexts } from './en/order';
import type { AfterSaleTexts } from './en/aftersale';
import { texts as enGBPlans } from './en-gb/plans';
import type { LocaleCode } from './locale';

export interface AreaTexts {
  /** The plan page and what every screen shares (errors, loading, cycles). */
  plans: PlansTexts;
  checkout: CheckoutTexts;
  order: OrderTexts;
  aftersale: AfterSaleTexts;
}
export type Area = keyof AreaTexts;
export const AREAS = ['plans', 'checkout', 'order', 'aftersale'] as const satisfies readonly Area[];
export type ErrorName = keyof PlansTexts['errors'];
export type { PlansTexts, CheckoutTexts, OrderTexts, AfterSaleTexts };

type Imports = { [A in Area]: () => Promise<AreaTexts[A]> };

const texts = <T>(module: Promise<{ texts: T }>): Promise<T> => module.then((m) => m.texts);

const english: Imports = {
  plans: () => Promise.resolve(enPlans),
  checkout: () => texts(import('./en/checkout')),
  order: () => texts(import('./en/order')),
  aftersale: () => texts(import('./en/aftersale')),
};

/** Every locale names every area: a locale or an area left out is a `tsc` error. */
const IMPORTS: Record<LocaleCode, Imports> = {
  en: english,
  'en-us': { ...english, checkout: () => texts(import('./en-us/checkout')), order: () => texts(import('./en-us/order')) },
  'en-gb': {
    plans: () => Promise.resolve(enGBPlans),
    checkout: () => texts(import('./en-gb/checkout')),
    order: () => texts(import('./en-gb/order')),
    aftersale: english.aftersale,
  },
  'de-de': {
    plans: () => texts(import('./de-de/plans')),
    checkout: () => texts(import('./de-de/checkout')),
    order: () => texts(import('./de-de/order')),
    aftersale: () => texts(import('./de-de/aftersale')),
  },
  'es-es': {
    plans: () => texts(import('./es-es/plans')),
    checkout: () => texts(import('./es-es/checkout')),
    order: () => texts(import('./es-es/order')),
    aftersale: () => texts(import('./es-es/aftersale')),
  },
  'nl-nl': {
    plans: () => texts(import('./nl-nl/plans')),
    checkout: () => texts(import('./nl-nl/checkout')),
    order: () => texts(import('./nl-nl/order')),
    aftersale: () => texts(import('./nl-nl/aftersale')),
  },
  'pt-pt': {
    plans: () => texts(import('./pt-pt/plans')),
    checkout: () => texts(import('./pt-pt/checkout')),
    order: () => texts(import('./pt-pt/order')),
    aftersale: () => texts(import('./pt-pt/aftersale')),
  },
};

type Loaded = { [L in LocaleCode]: Partial<AreaTexts> };
const loaded: Loaded = {
  en: { plans: enPlans },
  'en-us': { plans: enPlans },
  'en-gb': { plans: enGBPlans },
  'de-de': {},
  'es-es': {},
  'nl-nl': {},
  'pt-pt': {},
};
const pending = new Map<string, Promise<void>>();

/** A loaded table; asking for one that has not loaded is a bug (screens wait for theirs). */
export function tableOf<A extends Area>(locale: LocaleCode, area: A): AreaTexts[A] {
  const table = loaded[locale][area];
  if (!table) throw new Error(`the ${area} texts of ${locale} are not loaded`);
  return table;
}

export function hasTexts(locale: LocaleCode, areas: readonly Area[]): boolean {
  return areas.every((area) => loaded[locale][area] !== undefined);
}

function loadArea<A extends Area>(locale: LocaleCode, area: A): Promise<void> {
  const key = `${locale}/${area}`;
  let p = pending.get(key);
  if (!p) {
    // A translated table that cannot be fetched falls back to English; English that cannot is a
    // network failure, forgotten so that "Try again" fetches it again.
    const load = IMPORTS[locale][area] as () => Promise<AreaTexts[A]>;
    const fallback = IMPORTS.en[area] as () => Promise<AreaTexts[A]>;
    p = load()
      .catch(() => fallback())
      .then(
        (table) => {
          loaded[locale][area] = table;
        },
        (e: unknown) => {
          pending.delete(key);
          throw e;
        },
      );
    pending.set(key, p);
  }
  return p;
}

/** Loads a locale's tables of the given areas (each once). */
export function loadTexts(locale: LocaleCode, areas: readonly Area[]): Promise<void> {
  return Promise.all(areas.map((area) => loadArea(locale, area))).then(() => undefined);
}

/** The areas some screen has needed so far: a language switch loads these before it shows. */
function areasInUse(): Area[] {
  const used = new Set<Area>(['plans']);
  for (const tables of Object.values(loaded)) for (const area of Object.keys(tables)) used.add(area as Area);
  return [...used];
}

export function isLoaded(locale: LocaleCode): boolean {
  return hasTexts(locale, areasInUse());
}

/** Loads what a switch to this locale shows; a table that cannot be fetched falls back to English. */
export function loadMessages(locale: LocaleCode): Promise<void> {
  return loadTexts(locale, areasInUse()).catch(() => undefined);
}
