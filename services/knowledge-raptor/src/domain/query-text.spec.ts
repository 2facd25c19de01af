import { queryText } from './query-text';

describe('queryText', () => {
  it('removes times, dates, percentages, ratios, versions, addresses and quantities', () => {
    expect(
      queryText(
        'checkout down since 10:05 and 9am, deployed 2026-05-04T10:05:00Z v3.14 to 10.0.7.21, disk 94%, 0/12 nodes, 300ms for 20 minutes, 12 GB, 400k msgs',
      ),
    ).toBe('checkout down since and , deployed to , disk , nodes, for , , msgs');
  });

  it('removes generated name parts and bare one-, two- or five-digit numbers', () => {
    expect(queryText('pod recommender-5c8d restarted 14 times, 123456 rows')).toBe(
      'pod recommender- restarted times, rows',
    );
  });

  it('keeps status codes, exit codes, ports and identifiers that name a failure', () => {
    const q = 'exit code 137, 502s and 429 on port 5432, 5xx from s3 over http2 x509 log4j';
    expect(queryText(q)).toBe(q);
  });

  it('searches a query made only of numbers as it is', () => {
    expect(queryText('10:05 94%')).toBe('10:05 94%');
  });
});
