import { searchFromUrl, searchUrl } from './search-params';

describe('search in the URL', () => {
  it('round-trips a search through the URL', () => {
    const s = {
      query: 'pool exhausted & 5xx',
      strategy: 'sparse' as const,
      top_k: 7,
      service: 'checkout',
    };
    const url = searchUrl(s);
    expect(url).toBe(
      '/knowledge?q=pool+exhausted+%26+5xx&strategy=sparse&top_k=7&service=checkout',
    );
    expect(searchFromUrl(url.split('?')[1]!)).toEqual(s);
    expect(searchUrl({ query: 'x' })).toBe('/knowledge?q=x');
  });

  it('drops what the API would refuse and needs a query', () => {
    expect(searchFromUrl('')).toBeUndefined();
    expect(searchFromUrl('q=%20%20&top_k=3')).toBeUndefined();
    expect(searchFromUrl('q=db&strategy=fuzzy&top_k=0&service=%20')).toEqual({ query: 'db' });
    expect(searchFromUrl('q=db&top_k=101')).toEqual({ query: 'db' });
    expect(searchFromUrl('q=db&top_k=2.5')).toEqual({ query: 'db' });
    expect(searchFromUrl('q=db&top_k=100&strategy=dense')).toEqual({
      query: 'db',
      top_k: 100,
      strategy: 'dense',
    });
  });
});
