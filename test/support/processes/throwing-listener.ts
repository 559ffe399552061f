import { EventEmitter } from 'node:events';
import { installProcessGuards } from '../../../lib/process-guards';

/** Run by test/unit/process: a listener that throws and a rejection nobody handles. */
installProcessGuards({ error: (message) => process.stdout.write(`logged: ${message.split('\n')[0]}\n`) });
const socket = new EventEmitter();
socket.on('message', (data: string) => JSON.parse(data));
// The throw escapes this callback (as from a ws listener); the next callbacks must still run.
setImmediate(() => socket.emit('message', 'not json'));
setImmediate(() => {
  void Promise.reject(Object.assign(new Error('nobody awaited this'), { headers: { authorization: 'secret-token' } }));
  setImmediate(() => process.stdout.write('still serving\n'));
});
