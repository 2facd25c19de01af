import { Closers } from './closers';

function recordingLogger() {
  const warnings: { obj: Record<string, unknown>; msg: string | undefined }[] = [];
  return {
    warnings,
    warn: (obj: object, msg?: string) =>
      void warnings.push({ obj: obj as Record<string, unknown>, msg }),
  };
}

describe('Closers', () => {
  it('closes the newest first (LIFO)', async () => {
    const order: string[] = [];
    const closers = new Closers();
    closers.add('store', () => void order.push('store'));
    closers.add('bus', async () => {
      await new Promise((r) => setTimeout(r, 5));
      order.push('bus');
    });
    closers.add('grpc', () => void order.push('grpc'));
    await closers.closeAll();
    expect(order).toEqual(['grpc', 'bus', 'store']);
  });

  it('logs a failing closer and still runs the others', async () => {
    const logger = recordingLogger();
    const order: string[] = [];
    const closers = new Closers({ logger });
    closers.add('first', () => void order.push('first'));
    closers.add('broken', () => {
      throw new Error('boom');
    });
    closers.add('rejecting', () => Promise.reject(new Error('async boom')));
    await expect(closers.closeAll()).resolves.toBeUndefined();
    expect(order).toEqual(['first']);
    expect(logger.warnings.map((w) => w.obj['closer'])).toEqual(['rejecting', 'broken']);
    expect((logger.warnings[1]!.obj['err'] as Error).message).toBe('boom');
  });

  it('gives each closer at most timeoutMs, then goes on', async () => {
    const logger = recordingLogger();
    const order: string[] = [];
    const closers = new Closers({ logger, timeoutMs: 30 });
    closers.add('after', () => void order.push('after'));
    closers.add('stuck', () => new Promise(() => undefined));
    closers.add('slow but allowed', () => new Promise((r) => setTimeout(r, 60)), {
      timeoutMs: 500,
    });
    const t0 = Date.now();
    await closers.closeAll();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(order).toEqual(['after']);
    // the slow one had its own, longer bound and finished; the stuck one was cut off
    expect(logger.warnings).toEqual([
      expect.objectContaining({ obj: { closer: 'stuck', timeout_ms: 30 } }),
    ]);
  });

  it('runs each closer once however often closeAll is called', async () => {
    let n = 0;
    const closers = new Closers();
    closers.add('once', () => void n++);
    await Promise.all([closers.closeAll(), closers.closeAll()]);
    await closers.closeAll();
    expect(n).toBe(1);
  });
});
