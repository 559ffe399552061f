// A worker thread of the host transporter's tests and benchmark: a broker with an `echo` service
// on the host's channel (or on NATS when given a URL). It says when it has started, and stops its
// broker when told to; it must then exit on its own, nothing left open.
require('tsx/cjs');
const { parentPort, workerData } = require('node:worker_threads');
const { ServiceBroker } = require('moleculer');
const { HostTransporter } = require('../../../lib/bus/host-transporter');

const { nodeID, channel, nats } = workerData;
const broker = new ServiceBroker({
  nodeID,
  transporter: nats ?? new HostTransporter({ channel }),
  logger: false,
  skipProcessEventRegistration: true,
});
broker.createService({
  name: 'echo',
  actions: {
    echo: (ctx) => ({ ...ctx.params, answeredBy: ctx.broker.nodeID }),
  },
});

parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  broker.stop().then(() => parentPort.close());
});
broker.start().then(() => parentPort.postMessage('started'));
