import { MEASURE_ANSWER, readAnswer, type AnswerLimits, type VirtualAnswer } from './bounded-answer';
import { loadIsolatedVm, type IvmContext, type IvmIsolate } from './isolated-vm';
import { outboundCall, type OutboundLimits } from './outbound-call';

/** What one API's tenant code may use: memory, time per call, its HTTP helper's budget and answer's size. */
export interface IsolateLimits {
  memoryMb: number;
  timeoutMs: number;
  outbound: OutboundLimits;
  answer: AnswerLimits;
}

/**
 * The helpers the tenant's code sees, as in the reference gateway's JavaScript virtual
 * endpoints: `TykJsResponse(response, sessionMeta)` (also `GwJsResponse`), `TykMakeHttpRequest(json)`
 * (also `GwMakeHttpRequest`), `log(text)`. Nothing else of the host exists in there: no
 * `process`, `require`, timers or I/O.
 */
const PRELUDE = `
const GwJsResponse = (response, sessionMeta) => ({ Response: response, SessionMeta: sessionMeta });
const TykJsResponse = GwJsResponse;
const GwMakeHttpRequest = (request) => __gw_http.applySyncPromise(undefined, [typeof request === 'string' ? request : JSON.stringify(request)]);
const TykMakeHttpRequest = GwMakeHttpRequest;
const log = (text) => __gw_log.applyIgnored(undefined, [String(text).slice(0, 2000)]);
const rawlog = log;
`;

/** One endpoint's code, compiled into its own context of the API's isolate on first use. */
export interface VirtualProgram {
  source: string;
  functionName: string;
}

/**
 * One isolate per API (created on first use) with one context per virtual endpoint. Calls to it
 * run on the isolate's own thread, one at a time; a call that overruns its time is stopped,
 * one that exceeds the memory limit kills the isolate, which is made again for the next call.
 */
export class IsolatePool {
  private isolate: IvmIsolate | undefined;
  private contexts = new Map<VirtualProgram, Promise<IvmContext>>();

  constructor(
    private readonly limits: IsolateLimits,
    private readonly log: (text: string) => void,
  ) {}

  /**
   * Calls the program's function with JSON-copied arguments; resolves to its answer, measured
   * inside the isolate before anything is copied out (see bounded-answer.ts). An answer over
   * a limit rejects with VirtualAnswerTooLarge.
   */
  async answer(program: VirtualProgram, args: unknown[], withSession: boolean): Promise<VirtualAnswer> {
    const context = await this.contextFor(program);
    const ivm = loadIsolatedVm();
    const budget = { calls: 0, bytes: 0 };
    // Given to this call only (calls of one isolate run one at a time): each has its own budget.
    const http = new ivm.Reference((request: string) => outboundCall(request, this.limits.outbound, budget));
    const limits = { ...this.limits.answer, withSession };
    const result: unknown = await context.evalClosure(
      `globalThis.__gw_http = $1;
       const fn = globalThis[${JSON.stringify(program.functionName)}];
       if (typeof fn !== 'function') throw new Error('the function is not defined');
       const answer = fn(...$0.map((arg) => JSON.parse(arg)));
       ${MEASURE_ANSWER}`,
      [
        new ivm.ExternalCopy(args.map((arg) => JSON.stringify(arg ?? null))).copyInto(),
        http,
        new ivm.ExternalCopy(limits).copyInto(),
      ],
      { result: { copy: true }, timeout: this.limits.timeoutMs },
    );
    return readAnswer(result, this.limits.answer);
  }

  get answerLimits(): AnswerLimits {
    return this.limits.answer;
  }

  dispose(): void {
    if (this.isolate && !this.isolate.isDisposed) this.isolate.dispose();
    this.isolate = undefined;
    this.contexts.clear();
  }

  private contextFor(program: VirtualProgram): Promise<IvmContext> {
    if (!this.isolate || this.isolate.isDisposed) {
      this.isolate = new (loadIsolatedVm().Isolate)({ memoryLimit: this.limits.memoryMb });
      this.contexts = new Map();
    }
    let context = this.contexts.get(program);
    if (!context) {
      context = this.prepare(this.isolate, program);
      this.contexts.set(program, context);
      context.catch(() => this.contexts.delete(program));
    }
    return context;
  }

  private async prepare(isolate: IvmIsolate, program: VirtualProgram): Promise<IvmContext> {
    const context = await isolate.createContext();
    await context.global.set('__gw_log', new (loadIsolatedVm().Reference)((text: string) => this.log(text)));
    await context.eval(PRELUDE, { timeout: this.limits.timeoutMs });
    // Function declarations of the tenant's script become globals of its context.
    await context.eval(
      `${program.source}\n;globalThis[${JSON.stringify(program.functionName)}] = typeof ${safeName(program.functionName)} === 'function' ? ${safeName(program.functionName)} : undefined;`,
      { timeout: this.limits.timeoutMs },
    );
    return context;
  }
}

function safeName(name: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new Error(`response_function_name '${name}' is not a JavaScript name`);
  return name;
}
