// The screens after the plan cards, each folder its own chunk (dist/checkout.js, order.js,
// aftersale.js), loaded with React.lazy the first time one of its screens renders. The plan page
// (plans/) is part of the first script.
import { lazy, type ComponentType } from 'react';
import type { Controller } from '../core/controller';
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

/** React.lazy of one screen of a chunk, loaded again after a failure once App has shown it. */
function screen<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const make = () =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (e: unknown) => {
          throw new ScreenLoadError(e instanceof Error ? e.message : String(e), () => (current = make()));
        },
      ),
    );
  let current = make();
  return function Screen(props: P) {
    const Current = current;
    return <Current {...props} />;
  };
}

const checkout = () => import('./checkout');
const order = () => import('./order');

export const CheckoutForm = screen(() => checkout().then((m) => m.CheckoutForm));
export const CreatingOrder = screen(() => order().then((m) => m.CreatingOrder));
export const Waiting = screen(() => order().then((m) => m.Waiting));
export const Success = screen(() => order().then((m) => m.Success));
export const AfterSale: ComponentType<{ screen: ScreenName }> = screen(() => import('./aftersale').then((m) => m.AfterSale));

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
