import { configure } from '@testing-library/dom';
import { afterEach, beforeEach } from 'vitest';
import { timing } from '../core/timing';

const defaults = { ...timing };

// The text tables are import() chunks; in the browser they arrive over the network, and the tests
// that switch language do not test that wait. Imported once here, each later import() of a table is
// answered from the module cache at once (i18n/messages.ts still loads each through its promise).
import.meta.glob('../i18n/*/*.ts', { eager: true });

// CI shares two cores with the Go tests: give waiting queries room (they return as soon as they pass).
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  // Shorter waits instead of sleeping through 2 s polls; the real values are asserted in timing.test.ts.
  timing.pollMs = 5;
  timing.copiedMs = 30;
  timing.quoteDelayMs = 0;
  timing.emailDelayMs = 0;
  window.scrollTo = () => undefined;
  Element.prototype.scrollIntoView = () => undefined;
});

afterEach(async () => {
  Object.assign(timing, defaults);
  document.body.innerHTML = '';
  // Widgets unmount in a microtask after leaving the page; let that happen before the next test.
  await Promise.resolve();
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
  history.replaceState(null, '', '/');
  // The buyer's currency choice is kept there (core/controller.ts).
  sessionStorage.clear();
});
