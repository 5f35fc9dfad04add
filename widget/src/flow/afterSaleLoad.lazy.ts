// Build-time replacement for afterSaleLoad.ts: the after-sale screens (sign-in, services, upsell,
// resellers) are rarely used, so they live in dist/aftersale.js next to the bundle and are
// imported on first use, sharing this bundle's React and modules. What they share of the checkout
// (email field, copy button, session) comes with dist/checkout.js, loaded alongside.
import * as React from 'react';
import * as jsx from 'react/jsx-runtime';
import type { Kit } from '../aftersale/entry';
import type { Screens } from '../aftersale/screens';
import { loadCheckout } from '../checkout/load';
import { SCRIPT_BASE } from '../state/scriptBase';

export function loadAfterSale(): Promise<Screens> {
  const url = new URL('aftersale.js', SCRIPT_BASE).href;
  return Promise.all([loadCheckout(), import(/* @vite-ignore */ url) as Promise<{ install?: (kit: Kit) => Screens }>]).then(([{ afterSaleShared: shared }, m]) => {
    if (!m.install) throw new Error(`${url} is not the after-sale module`);
    return m.install({ react: React, jsx, shared });
  });
}
