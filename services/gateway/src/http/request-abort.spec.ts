import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { RequestAbort } from './request-abort';

/** the parts of a ServerResponse RequestAbort reads, driven by hand */
class FakeResponse extends EventEmitter {
  destroyed = false;
  writableEnded = false;
  /** the client goes away: node marks the response destroyed, then emits close */
  clientCloses(): void {
    this.destroyed = true;
    this.emit('close');
  }
  /** the answer is written, then the connection closes */
  answers(): void {
    this.writableEnded = true;
    this.destroyed = true;
    this.emit('close');
  }
}

const make = () => {
  const res = new FakeResponse();
  return { res, abort: new RequestAbort(res as unknown as ServerResponse) };
};

const reasonOf = (s: AbortSignal) => (s.reason as Error).message;

describe('RequestAbort', () => {
  it('a signal made before the close aborts when the client leaves after watch()', () => {
    const { res, abort } = make();
    abort.watch();
    const signal = abort.signal;
    expect(signal.aborted).toBe(false);
    res.clientCloses();
    expect(signal.aborted).toBe(true);
    expect(reasonOf(signal)).toBe('client closed the connection');
    expect(abort.aborted).toBe(true);
  });

  it('a signal made after the client left is already aborted; without one, aborted says so', () => {
    const { res, abort } = make();
    abort.watch();
    res.clientCloses();
    expect(abort.aborted).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect(reasonOf(abort.signal)).toBe('client closed the connection');
  });

  it('a signal made before watch() starts listening at watch()', () => {
    const { res, abort } = make();
    const signal = abort.signal;
    res.emit('close'); // not watched yet: ignored
    expect(signal.aborted).toBe(false);
    abort.watch();
    res.clientCloses();
    expect(signal.aborted).toBe(true);
  });

  it('never aborts for a close that came before watch() or after the answer ended', () => {
    const early = make();
    early.res.clientCloses();
    early.abort.watch();
    expect(early.abort.aborted).toBe(false);
    expect(early.abort.signal.aborted).toBe(false);

    const answered = make();
    answered.abort.watch();
    const signal = answered.abort.signal;
    answered.res.answers();
    expect(signal.aborted).toBe(false);
    expect(answered.abort.aborted).toBe(false);

    const answeredNoSignal = make();
    answeredNoSignal.abort.watch();
    answeredNoSignal.res.answers();
    expect(answeredNoSignal.abort.aborted).toBe(false);
    expect(answeredNoSignal.abort.signal.aborted).toBe(false);
  });

  it('a timeout aborts the signal made before or after it, with its reason, once', () => {
    const before = make();
    const signal = before.abort.signal;
    before.abort.abort(new Error('request timed out'));
    expect(signal.aborted).toBe(true);
    expect(reasonOf(signal)).toBe('request timed out');

    const after = make();
    after.abort.watch();
    after.abort.abort(new Error('request timed out'));
    expect(after.abort.aborted).toBe(true);
    after.abort.abort(new Error('second'));
    after.res.clientCloses();
    expect(reasonOf(after.abort.signal)).toBe('request timed out');
  });
});
