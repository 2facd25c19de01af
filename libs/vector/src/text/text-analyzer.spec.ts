import { TextAnalyzer, stem } from './text-analyzer';

describe('TextAnalyzer', () => {
  const a = new TextAnalyzer();
  it('adds concept tokens for vocabulary phrases on both query and document wording', () => {
    expect(a.terms('container exited with exit code 137')).toContain('c_oom');
    expect(a.terms('pod OOMKilled')).toContain('c_oom');
    expect(a.terms('Out of memory in the JVM')).toContain('c_oom');
    expect(a.terms('lots of 5xx')).toContain('c_server_error');
    expect(a.terms('CrashLoopBackOff')).toContain('c_crashloop');
    expect(a.terms('just some words')).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^c_/)]),
    );
  });
  it('bridges operations wording of the same failure (vocabulary 3)', () => {
    expect(a.terms('nf_conntrack: table full, dropping packet')).toContain('c_conntrack');
    expect(a.terms('KubeletPlegDurationHigh: PLEG is not healthy')).toContain(
      'c_container_runtime',
    );
    expect(a.terms('iowait at 40% on the database host')).toContain('c_disk_io');
    expect(a.terms('messages land in the DLQ')).toContain('c_dead_letter');
    expect(a.terms('node drain blocked by a PodDisruptionBudget')).toContain('c_drain');
    expect(a.terms('namespace stuck Terminating on finalizers')).toContain('c_finalizer');
  });
  it('tells confusable failures apart (vocabulary 4)', () => {
    const has = (t: string, c: string) => a.terms(t).includes(`c_${c}`);
    expect(has('NET::ERR_CERT_DATE_INVALID in the browser', 'cert_expired')).toBe(true);
    expect(has('NET::ERR_CERT_DATE_INVALID in the browser', 'cert_chain')).toBe(false);
    expect(has('curl: unable to get local issuer certificate', 'cert_chain')).toBe(true);
    expect(has('curl: unable to get local issuer certificate', 'cert_expired')).toBe(false);
    expect(has('Lock wait timeout exceeded; try restarting transaction', 'lock_wait')).toBe(true);
    expect(has('Lock wait timeout exceeded; try restarting transaction', 'deadlock')).toBe(false);
    expect(has('ERROR: deadlock detected', 'deadlock')).toBe(true);
    expect(
      has(
        'Pod ephemeral local storage usage exceeds the total limit of containers',
        'ephemeral_storage_limit',
      ),
    ).toBe(true);
    expect(has('java.lang.OutOfMemoryError: Java heap space', 'heap_oom')).toBe(true);
    expect(has('G1 Evacuation Pause (to-space exhausted)', 'heap_oom')).toBe(false);
  });
  it('does not read a service name as a kind of failure (vocabulary 4)', () => {
    // "payments-api" and "checkout" name services; the payment concept is about card payments
    expect(a.terms('checkout pods restart, payments-api logs are fine')).not.toContain('c_payment');
    expect(a.terms('card authorizations fail at the payment provider')).toContain('c_payment');
  });
  it('reads a status code used as a word as the code (analyzer 3)', () => {
    expect(a.terms('shop is 502ing since 10:40')).toEqual(
      expect.arrayContaining(['502', 'c_server_error']),
    );
    expect(a.terms('lots of 503s from the api')).toContain('503');
    expect(a.terms('we get 404ed')).toContain('404');
    // other words that start with digits keep their shape
    expect(a.terms('ran on 5xx and 1st node and 64ed')).toEqual(
      expect.arrayContaining(['5xx', '1st', '64ed']),
    );
  });
  it('drops stopwords, stems lightly and handles mixed scripts', () => {
    expect(a.terms('The pods are restarting')).toEqual(expect.arrayContaining(['pod', 'restart']));
    expect(a.terms('the')).toEqual([]);
    expect(a.terms('Ошибка базы данных 数据库 error')).toEqual(
      expect.arrayContaining(['ошибка', 'error']),
    );
    expect(stem('queries')).toBe('query');
    expect(stem('running')).toBe('run');
  });
});

describe('TextAnalyzer compound names', () => {
  const a = new TextAnalyzer();
  it('splits alert-style names at case changes and keeps the whole name', () => {
    const t = a.terms('KubePodCrashLooping');
    expect(t).toEqual(
      expect.arrayContaining(['kube', 'pod', 'crash', 'loop', 'kubepodcrashlooping']),
    );
    expect(t).toContain('c_crashloop');
    expect(a.terms('OOMKilled')).toEqual(expect.arrayContaining(['oom', 'kill', 'c_oom']));
    expect(a.terms('5xx x509 k8s')).toEqual(expect.arrayContaining(['5xx', 'x509', 'k8s']));
  });
  it('matches vocabulary phrases on stemmed words', () => {
    expect(a.terms('the pod is crash looping')).toContain('c_crashloop');
    expect(a.terms('we are running out of disk')).toContain('c_disk_full');
    expect(a.terms('container died with exit 137')).toContain('c_oom');
  });
});
