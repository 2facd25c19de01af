import { locElements } from './web-source';

describe('locElements (sitemap <loc> entries)', () => {
  it('reads each <loc> to the first closing tag after it, prefixed or spaced', () => {
    expect(
      locElements(
        '<urlset><url><loc>https://a/1</loc></url><url><sm:loc >https://a/2</ sm:loc></url><loc>x',
      ),
    ).toEqual(['https://a/1', 'https://a/2']);
    // an opening tag inside an entry belongs to it, as a lazy expression reads it
    expect(locElements('<loc><loc>https://a/3</loc>')).toEqual(['<loc>https://a/3']);
  });

  it('reads 256 KiB of unclosed <loc> in linear time', () => {
    // a lazy expression tried from every <loc> to the end took seconds here, an hour for 5 MiB
    const xml = `<urlset>${'<loc>'.repeat((256 * 1024) / 5)}`;
    const started = Date.now();
    expect(locElements(xml)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(4000);
  }, 60_000);
});
