import { BroadcastChannel } from 'node:worker_threads';
import type { WorkerRoster } from './roster';

interface Question {
  id: string;
  from: number;
  kind: string;
  payload: unknown;
}

interface Answer {
  re: string;
  from: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

/** What a sibling answered to `ask`: its result, or why it failed. */
export type SiblingAnswer = { index: number; ok: true; result: unknown } | { index: number; ok: false; error: string };

type Handler = (payload: unknown) => unknown;

/**
 * What the gateway workers of one host ask each other, over a BroadcastChannel of that host:
 * things one worker is asked that the host must do as a whole (`/gw/reload` on one worker
 * reloads all of them; a definition written through `/gw/apis` is served by every worker before
 * the write answers; a `/metrics` scrape sums every worker). A question goes to the siblings the
 * roster shows ready, and `ask` resolves with their answers, or with what came within the time
 * allowed (a worker that is being replaced does not hold the others up).
 */
export class HostChannel {
  private readonly channel: BroadcastChannel;
  private readonly handlers = new Map<string, Handler>();
  private readonly waiting = new Map<string, (answer: Answer) => void>();
  private nextId = 0;

  constructor(
    hostId: string,
    private readonly index: number,
    private readonly roster: WorkerRoster,
  ) {
    this.channel = new BroadcastChannel(`gw-host-control:${hostId}`);
    this.channel.onmessage = (event) => this.receive((event as MessageEvent).data as Question | Answer);
    // an idle channel must not keep a stopping worker alive
    (this.channel as unknown as { unref(): void }).unref();
  }

  /** Answers `kind` questions from the siblings; a handler may return a promise. */
  on(kind: string, handler: Handler): void {
    this.handlers.set(kind, handler);
  }

  /** Asks every other ready worker; resolves with the answers that came within `timeoutMs`. */
  ask(kind: string, payload: unknown, timeoutMs: number): Promise<SiblingAnswer[]> {
    const siblings = new Set(this.roster.ready().filter((index) => index !== this.index));
    if (siblings.size === 0) return Promise.resolve([]);
    const id = `${this.index}:${this.nextId++}`;
    const answers: SiblingAnswer[] = [];
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(answers.sort((a, b) => a.index - b.index));
      };
      const timer = setTimeout(finish, timeoutMs);
      this.waiting.set(id, (answer) => {
        if (!siblings.delete(answer.from)) return;
        answers.push(
          answer.ok
            ? { index: answer.from, ok: true, result: answer.result }
            : { index: answer.from, ok: false, error: answer.error ?? 'failed' },
        );
        if (siblings.size === 0) finish();
      });
      this.channel.postMessage({ id, from: this.index, kind, payload } satisfies Question);
    });
  }

  close(): void {
    this.channel.close();
  }

  private receive(message: Question | Answer): void {
    if ('re' in message) return this.waiting.get(message.re)?.(message);
    if (message.from === this.index) return;
    const handler = this.handlers.get(message.kind);
    if (!handler) return this.reply(message, { ok: false, error: `no handler for ${message.kind}` });
    Promise.resolve()
      .then(() => handler(message.payload))
      .then(
        (result) => this.reply(message, { ok: true, result }),
        (err: unknown) => this.reply(message, { ok: false, error: (err as Error)?.message ?? String(err) }),
      );
  }

  private reply(question: Question, answer: Omit<Answer, 're' | 'from'>): void {
    this.channel.postMessage({ re: question.id, from: this.index, ...answer } satisfies Answer);
  }
}
