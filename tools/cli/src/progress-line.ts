import { isTerminal } from '@inquest/client';
import type { Investigation } from '@inquest/client';
import type { Style } from './style';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * The live progress of a waiting investigation on stderr. On a TTY one line is redrawn in
 * place (with a spinner between polls); elsewhere a line is printed only when the step changes,
 * so logs stay readable.
 */
export class ProgressLine {
  private frame = 0;
  private text = '';
  private lastLogged = '';
  private timer: NodeJS.Timeout | undefined;
  private readonly startedAt = Date.now();

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly style: Style,
    private readonly id: string,
  ) {
    if (stream.isTTY) {
      this.timer = setInterval(() => this.draw(), 100);
      this.timer.unref();
    }
  }

  update(inv: Investigation): void {
    const p = inv.progress;
    this.text =
      p && !isTerminal(inv.status)
        ? `${inv.status} · ${p.current_step} (${p.steps_completed}/${p.steps_total})`
        : inv.status;
    if (this.stream.isTTY) {
      this.draw();
    } else if (this.text !== this.lastLogged) {
      this.lastLogged = this.text;
      this.stream.write(`${this.id} ${this.text}\n`);
    }
  }

  private draw(): void {
    if (!this.text) return;
    const secs = Math.floor((Date.now() - this.startedAt) / 1000);
    const spin = this.style.cyan(FRAMES[this.frame++ % FRAMES.length]!);
    const cols = this.stream.columns ?? 100;
    const line = `${this.id} ${this.text} · ${secs}s`.slice(0, Math.max(10, cols - 3));
    this.stream.write(`\r\u001b[2K${spin} ${line}`);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.stream.isTTY && this.text) this.stream.write('\r\u001b[2K');
  }
}
