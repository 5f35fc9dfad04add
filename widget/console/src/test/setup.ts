import { cleanup } from '@testing-library/react';
import { configure } from '@testing-library/dom';
import { afterEach, beforeEach, expect } from 'vitest';
import { switchLocale } from '../messages';
import { takeBreaches } from './fakeApi';

/** Fails the running test if the fake answered or was asked off the contract. */
function expectNoBreaches() {
  expect(takeBreaches(), 'the fake admin API answered or was asked off the contract').toEqual([]);
}

// jsdom has no CSS.escape, which react-aria's dialogs call (looking for a csp-nonce meta): the
// browsers the console supports all have it.
if (typeof CSS === 'undefined' || !CSS.escape) {
  const escape = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, (c) => `\\${c}`);
  Object.defineProperty(globalThis, 'CSS', { value: { ...(globalThis.CSS ?? {}), escape }, configurable: true });
}

// CI shares two cores with the Go tests: give waiting queries room (they return as soon as they pass).
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  history.replaceState(null, '', '/checkout/admin/');
});

afterEach(async () => {
  // Unmounted first, so a failing check cannot leave this test's app running into the next test.
  cleanup();
  expectNoBreaches();
  // A test that switched the language leaves the next one in English, with no choice remembered.
  localStorage.clear();
  await switchLocale('en');
});
