import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Errors, ServiceBroker, type Context, type ServiceSchema } from 'moleculer';
import { HostTransporter } from '../../../lib/bus/host-transporter';
import { eventually } from '../../support/eventually';

/** The payload of `$node.disconnected`: `unexpected` is false when the node said goodbye. */
interface Departure {
  node: { id: string };
  unexpected: boolean;
}

const WORKER = join(__dirname, '..', '..', 'support', 'processes', 'host-bus-worker.js');

function hostBroker(nodeID: string, channel: string): ServiceBroker {
  const transporter = new HostTransporter({ channel });
  return new ServiceBroker({ nodeID, transporter, logger: false, skipProcessEventRegistration: true });
}

/** A service that counts the `tick` and `tock` events its broker receives. */
function counterService(received: { tick: number; tock: number }): ServiceSchema {
  return {
    name: 'counter',
    events: {
      tick: () => void received.tick++,
      tock: () => void received.tock++,
    },
  };
}

/** The ids of the nodes a broker sees as available, itself included. */
async function availableNodes(broker: ServiceBroker): Promise<string[]> {
  const nodes = await broker.call<{ id: string }[], object>('$node.list', { onlyAvailable: true });
  return nodes.map((node) => node.id).sort();
}

describe('the host transporter between brokers of one process', () => {
  const channel = `gw-host:test-${process.pid}`;
  const a = hostBroker('a', channel);
  const b = hostBroker('b', channel);
  const c = hostBroker('c', channel);
  const elsewhere = hostBroker('elsewhere', `${channel}:other`);
  const onB = { tick: 0, tock: 0 };
  const onC = { tick: 0, tock: 0 };
  const onElsewhere = { tick: 0, tock: 0 };
  const disconnected: string[] = [];

  before(async () => {
    b.createService({
      name: 'greeter',
      actions: { hello: (ctx) => `hello ${ctx.params.name} from ${ctx.broker.nodeID}` },
    });
    b.createService(counterService(onB));
    c.createService(counterService(onC));
    elsewhere.createService(counterService(onElsewhere));
    elsewhere.createService({ name: 'greeter', actions: { hello: () => 'from elsewhere' } });
    a.createService({
      name: 'watcher',
      events: { '$node.disconnected': (ctx: Context<Departure>) => void disconnected.push(ctx.params.node.id) },
    });
    await Promise.all([a.start(), b.start(), c.start(), elsewhere.start()]);
    await eventually(async () => assert.deepEqual(await availableNodes(a), ['a', 'b', 'c']), 5000);
  });
  after(() => Promise.all([a.stop(), b.stop(), c.stop(), elsewhere.stop()]));

  it('answers a call with the broker that has the action', async () => {
    assert.equal(await a.call('greeter.hello', { name: 'gw' }), 'hello gw from b');
  });

  it('hands an emitted event to one instance of the group, a broadcast to every instance', async () => {
    for (let i = 0; i < 10; i++) await a.emit('tick');
    await a.broadcast('tock');
    // a sender's packets arrive in order, so once the broadcast is in, every tick before it is
    await eventually(() => assert.deepEqual([onB.tock, onC.tock], [1, 1]));
    assert.equal(onB.tick + onC.tick, 10);
  });

  it('carries nothing to a broker on another channel', async () => {
    assert.deepEqual(await availableNodes(elsewhere), ['elsewhere']);
    assert.deepEqual(onElsewhere, { tick: 0, tock: 0 });
    assert.equal(await elsewhere.call('greeter.hello'), 'from elsewhere');
  });

  it('tells the others when a broker stops, and its actions are then not available', async () => {
    await b.stop();
    await eventually(() => assert.deepEqual(disconnected, ['b']));
    await assert.rejects(a.call('greeter.hello', { name: 'gw' }), Errors.ServiceNotAvailableError);
  });
});

describe('the host transporter between threads', () => {
  const channel = `gw-host:threads-${process.pid}`;
  const main = hostBroker('main', channel);
  let worker: Worker | undefined;

  before(async () => {
    await main.start();
    worker = new Worker(WORKER, { workerData: { nodeID: 'main.w0', channel } });
    await once(worker, 'message');
    await main.waitForServices('echo', 5000, 20);
  });
  after(async () => {
    await worker?.terminate();
    await main.stop();
  });

  it("answers a call on the worker thread's broker", async () => {
    assert.deepEqual(await main.call('echo.echo', { n: 1 }), { n: 1, answeredBy: 'main.w0' });
  });

  it('carries a payload of a megabyte both ways intact', async () => {
    const text = randomBytes(768 * 1024).toString('base64');
    const answer = await main.call<{ text: string }, object>('echo.echo', { text });
    assert.equal(answer.text.length, 1024 * 1024);
    assert.equal(answer.text, text);
  });

  it('lets the worker exit once its broker has stopped, and the main thread sees it leave', async () => {
    const exited = once(worker!, 'exit');
    const left = new Promise<Departure>((resolve) => main.localBus.once('$node.disconnected', resolve));
    worker!.postMessage('stop');
    const { node, unexpected } = await left;
    assert.deepEqual([node.id, unexpected], ['main.w0', false]);
    assert.deepEqual(await exited, [0]);
    worker = undefined;
    await assert.rejects(main.call('echo.echo', {}), Errors.ServiceNotAvailableError);
  });
});
