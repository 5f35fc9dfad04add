import { cleanup } from '@testing-library/react';
import { configure } from '@testing-library/dom';
import { afterEach, beforeEach } from 'vitest';

// CI shares two cores with the Go tests: give waiting queries room (they return as soon as they pass).
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  history.replaceState(null, '', '/checkout/admin/');
});

afterEach(() => {
  cleanup();
});
