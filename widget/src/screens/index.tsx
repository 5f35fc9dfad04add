// The screens after the plan cards, each folder its own chunk (dist/checkout.js, order.js,
// aftersale.js), loaded with React.lazy the first time one of its screens renders, together with the
// texts of the areas it shows (i18n/messages.ts). The plan page (plans/) is part of the first script.
import { lazy, use, type ComponentType } from 'react';
import type { Controller } from '../core/controller';
import type { LocaleCode } from '../i18n/locale';
import { hasTexts, loadTexts, type Area } from '../i18n/messages';
import { useI18n } from '../ui/context';
import type { ScreenName } from './aftersale';

/**
 * A screen's chunk could not be loaded (offline, a deploy replaced it): App shows the network error
 * and calls forget(), so that its "Try again" asks for the chunk again (React.lazy alone keeps a
 * failure for good).
 */
export class ScreenLoadError extends Error {
  override name = 'ScreenLoadError';
  constructor(
    message: string,
    readonly forget: () => void,
  ) {
    super(message);
  }
}

function failure(e: unknown, forget: () => void): ScreenLoadError {
  return new ScreenLoadError(e instanceof Error ? e.message : String(e), forget);
}

type Tracked = Promise<void> & { status?: string; value?: void; reason?: unknown };

/**
 * Marks a promise's outcome in the fields React's use() itself sets on a promise it waits for, so
 * that use() reads a settled one at once instead of suspending for a tick.
 */
function settled(p: Tracked): Tracked {
  p.status = 'pending';
  p.then(
    (value) => Object.assign(p, { status: 'fulfilled', value }),
    (reason: unknown) => Object.assign(p, { status: 'rejected', reason }),
  );
  return p;
}

const LOADED: Tracked = Object.assign(Promise.resolve(), { status: 'fulfilled', value: undefined });

/**
 * React.lazy of one screen of a chunk, loaded again after a failure once App has shown it. It renders
 * once the texts of its areas are loaded in the shown locale (no flash of missing text); the chunk
 * is fetched alongside them, not after.
 */
function screen<P extends object>(areas: readonly Area[], load: () => Promise<ComponentType<P>>): ComponentType<P> {
  // One request for the chunk, whether its texts or React.lazy asks first.
  let chunk: Promise<ComponentType<P>> | undefined;
  const fetchChunk = () => (chunk ??= load());
  const make = () =>
    lazy(() =>
      fetchChunk().then(
        (component) => ({ default: component }),
        (e: unknown) => {
          throw failure(e, () => {
            chunk = undefined;
            current = make();
          });
        },
      ),
    );
  let current = make();
  // use() needs the same promise on every render, and one it can read without suspending once the
  // texts are there.
  const waiting = new Map<LocaleCode, Promise<void>>();
  const textsOf = (locale: LocaleCode) => {
    let p = waiting.get(locale);
    if (!p) {
      p = hasTexts(locale, areas)
        ? LOADED
        : settled(
            loadTexts(locale, areas).catch((e: unknown) => {
              // Forgotten at once: the render after "Try again" fetches again.
              waiting.delete(locale);
              throw failure(e, () => undefined);
            }),
          );
      waiting.set(locale, p);
    }
    return p;
  };
  return function Screen(props: P) {
    const { locale } = useI18n();
    if (!hasTexts(locale, areas)) fetchChunk().catch(() => undefined);
    use(textsOf(locale));
    const Current = current;
    return <Current {...props} />;
  };
}

const checkout = () => import('./checkout');
const order = () => import('./order');

// The order pages follow Pay: their texts come with the form's (in parallel), so Pay never waits on them.
export const CheckoutForm = screen(['checkout', 'order'], () => checkout().then((m) => m.CheckoutForm));
export const CardTerms = screen(['checkout'], () => checkout().then((m) => m.CardTerms));
export const CreatingOrder = screen(['order'], () => order().then((m) => m.CreatingOrder));
export const Waiting = screen(['order'], () => order().then((m) => m.Waiting));
export const Success = screen(['order'], () => order().then((m) => m.Success));
export const AfterSale: ComponentType<{ screen: ScreenName }> = screen(['checkout', 'order', 'aftersale'], () =>
  import('./aftersale').then((m) => m.AfterSale),
);

/** The order pages follow Pay: their chunk is fetched with the form's, so Pay never waits on it. */
export function preloadOrder(): void {
  order().catch(() => undefined);
}

/** The landing actions (automatic order, auto-login) all start from an email in the URL. */
export function runLanding(c: Controller): void {
  if (c.landing.email)
    checkout().then(
      (m) => m.runLanding(c),
      () => undefined,
    );
}
