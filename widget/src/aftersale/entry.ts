// Entry of dist/aftersale.js: the main bundle imports it on first use and calls install() with
// its own React, JSX runtime and shared modules (see shared.remote.ts).
import type * as R from 'react';
import type * as J from 'react/jsx-runtime';
import type * as S from './shared';
import { provide } from './shared.remote';
import { provideJsx } from './shim/jsx-runtime';
import { provideReact } from './shim/react';
import { screens, type Screens } from './screens';

export interface Kit {
  react: typeof R;
  jsx: typeof J;
  shared: typeof S;
}

export function install(kit: Kit): Screens {
  provideReact(kit.react);
  provideJsx(kit.jsx);
  provide(kit.shared);
  return screens;
}
