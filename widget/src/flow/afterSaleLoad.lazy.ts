// Build-time replacement for afterSaleLoad.ts: the after-sale screens (sign-in, services, upsell,
// resellers) are rarely used, so they live in dist/aftersale.js next to the bundle and are
// imported on first use, sharing this bundle's React and modules.
import * as React from 'react';
import * as jsx from 'react/jsx-runtime';
import * as shared from '../aftersale/shared';
import type { Kit } from '../aftersale/entry';
import type { Screens } from '../aftersale/screens';
import { SCRIPT_BASE } from '../state/scriptBase';

export function loadAfterSale(): Promise<Screens> {
  const url = new URL('aftersale.js', SCRIPT_BASE).href;
  return import(/* @vite-ignore */ url).then((m: { install?: (kit: Kit) => Screens }) => {
    if (!m.install) throw new Error(`${url} is not the after-sale module`);
    return m.install({ react: React, jsx, shared });
  });
}
