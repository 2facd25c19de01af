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
