import { cleanup } from '@testing-library/react';
import { configure } from '@testing-library/dom';
import { afterEach, beforeEach } from 'vitest';
import { expectNoBreaches } from './fakeApi';

// CI shares two cores with the Go tests: give waiting queries room (they return as soon as they pass).
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  history.replaceState(null, '', '/checkout/admin/');
});

afterEach(() => {
  // Unmounted first, so a failing check cannot leave this test's app running into the next test.
  cleanup();
  expectNoBreaches();
});
