import { createTestGateway, type TestGateway } from './support/test-gateway';

describe('GET /', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway();
  });
  afterAll(() => gw.stop());

  it('redirects a browser to the API reference, without a token', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await fetch(`${gw.url}/`, { method, redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/api/v1/docs');
    }
    const followed = await fetch(`${gw.url}/`);
    expect(followed.status).toBe(200);
    expect(followed.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await followed.text()).toContain('spec-url="/api/v1/openapi.json"');
  });

  it('leaves other unknown paths a JSON 404', async () => {
    const res = await gw.request('GET', '/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: { code: 'not_found' } });
  });
});
