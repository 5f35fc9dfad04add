// The fake's contract check must be able to fail: each kind of breach is caught, and only a route
// marked offContract may answer off the contract.
import { describe, expect, it } from 'vitest';
import { API_BASE } from '../api';
import { CSRF, FakeApi, job, takeBreaches } from './fakeApi';

const send = (fake: FakeApi, method: string, path: string, body?: unknown) =>
  fake.fetch(API_BASE + path, {
    method,
    headers: { 'X-CSRF-Token': CSRF, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('the fake admin API', () => {
  it('reports an answer, a request body, a parameter and a route off the contract', async () => {
    const fake = new FakeApi('owner')
      .on('GET', '/jobs', () => ({ jobs: [{ ...job(), state: 'stuck' }] }))
      .on('POST', '/jobs/:id/retry', () => ({ ...job(), retried: true }))
      .on('POST', '/orders/:id/approve', () => ({ status: 204 }));
    await send(fake, 'GET', '/jobs');
    await send(fake, 'POST', '/jobs/7/retry');
    await send(fake, 'POST', '/orders/ord_1/approve', { mode: 'provision' });
    await send(fake, 'POST', '/operators', { email: 'new@example.com' });
    await send(fake, 'PATCH', '/promotions/WELCOME', { disabled: true, paused: true });
    await send(fake, 'GET', '/nowhere');
    await send(fake, 'GET', '/jobs?state=stuck&limit=0&page=2');
    await send(fake, 'POST', '/jobs/seven/retry');
    const found = takeBreaches();
    expect(found).toHaveLength(11);
    expect(found[0]).toMatch(/^GET adminJobs\.list → 200 breaks the contract:\n {2}jobs\.0\.state:/);
    expect(found[1]).toMatch(/retried/);
    expect(found[2]).toMatch(/adminOrderActions\.approve declares no 204 response/);
    expect(found[3]).toMatch(/^the console sent POST adminOperators\.invite a body the contract refuses:\n {2}role:/);
    // The fake has no POST /operators route: its 404 is an answer the contract has not either.
    expect(found[4]).toMatch(/adminOperators\.invite → 404 breaks the contract/);
    expect(found[5]).toBe('the console sent PATCH adminPromotions.update fields the contract does not declare: paused');
    expect(found[6]).toBe('GET /checkout/api/admin/nowhere is not an operation of the contract');
    expect(found[7]).toMatch(
      /^the console sent GET adminJobs\.list parameters the contract refuses:\n {2}query parameter state=stuck: .+\n {2}query parameter limit=0: .+\n {2}query parameter page: not declared by adminJobs\.list$/,
    );
    expect(found[8]).toMatch(/^GET adminJobs\.list → 200/);
    expect(found[9]).toMatch(/^the console sent POST adminJobs\.retry parameters the contract refuses:\n {2}path parameter id=seven: /);
    expect(found[10]).toMatch(/retried/);
  });

  it('answers a plain body with the success status the contract declares, and checks its own 401 and 403', async () => {
    const fake = new FakeApi('owner').on('POST', '/operators', () => ({
      operator: { email: 'new@example.com', role: 'support', status: 'pending', createdAt: '2026-11-20T10:00:00Z', disabledAt: '' },
      setupUrl: 'https://shop.example/checkout/admin/setup?token=abc',
      expiresAt: '2026-11-21T10:00:00Z',
    }));
    expect((await send(fake, 'POST', '/operators', { email: 'new@example.com', role: 'support' })).status).toBe(201);
    expect((await fake.fetch(`${API_BASE}/operators`, { method: 'POST', body: '{"email":"a@b.c","role":"viewer"}' })).status).toBe(403);
    fake.signedIn = null;
    expect((await send(fake, 'GET', '/summary')).status).toBe(401);
    expect(takeBreaches()).toEqual([]);
  });

  it('lets a route marked offContract answer off the contract, and refuses a route the contract lacks', async () => {
    const fake = new FakeApi('owner').on('GET', '/jobs', () => ({ jobs: 'garbled' }), { offContract: true });
    expect(await (await send(fake, 'GET', '/jobs')).json()).toEqual({ jobs: 'garbled' });
    expect(takeBreaches()).toEqual([]);
    expect(() => fake.on('GET', '/job/:id', () => job())).toThrow('GET /job/:id is not an operation of the contract');
  });
});
