import type { Input, Sink } from '../components';

/** Bento's `broker` input: every child input feeds the same pipeline. */
export class BrokerInput implements Input {
  constructor(private readonly children: Input[]) {}

  start(sink: Sink): void {
    for (const child of this.children) child.start(sink);
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((child) => child.stop()));
  }
}
