// Compile-time check (tsconfig.types.json, part of `npm test`) that the hand-written public types in
// index.d.ts describe what the source exports. A change to the element, its events, attributes or
// locales fails here ("Type 'false' does not satisfy the constraint 'true'") until index.d.ts agrees.
import type * as Public from './index';
import type { ATTRIBUTES } from '../src/element/attributes';
import type * as Element from '../src/element/element';
import type * as Events from '../src/core/events';
import type * as Locale from '../src/i18n/locale';
import type { Money } from '../src/api/schemas';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Same<T extends true> = T;
// Public members only: a mapped type drops the class's #private brand, which no other class shares.
type Surface<T> = { [K in keyof T]: T[K] };
type Statics<C> = Omit<C, 'prototype'>;

export type EventMap = Same<Equal<Public.StreamcartEventMap, Events.StreamcartEventMap>>;
export type EventName = Same<Equal<Public.StreamcartEventName, Events.StreamcartEventName>>;
export type Event = Same<Equal<Public.StreamcartEvent<'streamcart:order-paid'>, Events.StreamcartEvent<'streamcart:order-paid'>>>;
export type MoneyType = Same<Equal<Public.Money, Money>>;
export type LocaleCode = Same<Equal<Public.LocaleCode, Locale.LocaleCode>>;
export type Locales = Same<Equal<typeof Public.LOCALES, typeof Locale.LOCALES>>;
export type Tag = Same<Equal<typeof Public.TAG, typeof Element.TAG>>;
export type Define = Same<Equal<typeof Public.define, typeof Element.define>>;
export type Attributes = Same<Equal<Public.StreamcartAttributeName, (typeof ATTRIBUTES)[number]>>;
export type Instance = Same<Equal<Surface<Public.StreamcartCheckoutElement>, Surface<Element.StreamcartCheckoutElement>>>;
export type Static = Same<Equal<Statics<typeof Public.StreamcartCheckoutElement>, Statics<typeof Element.StreamcartCheckoutElement>>>;
export type Constructor = Same<
  Equal<ConstructorParameters<typeof Public.StreamcartCheckoutElement>, ConstructorParameters<typeof Element.StreamcartCheckoutElement>>
>;
// The declared values are the runtime exports of src/index.ts (pinned by src/package.test.ts).
export type Values = Same<Equal<keyof typeof Public, 'LOCALES' | 'StreamcartCheckoutElement' | 'TAG' | 'define'>>;
