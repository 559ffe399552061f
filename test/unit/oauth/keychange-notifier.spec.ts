import { strict as assert } from 'node:assert';
import { ServiceBroker } from 'moleculer';
import { KeyChangeNotifier } from '../../../services/oauth/lib/keychange-notifier';
import { eventually } from '../../support/eventually';
import { startUpstream, type Upstream } from '../../support/upstream';

const note = {
  auth_code: 'c',
  new_oauth_token: 't',
  refresh_token: 'r',
  old_refresh_token: '',
  notification_type: 'new' as const,
};

describe('oauth: key-change notifications', () => {
  let receiver: Upstream;
  let notifier: KeyChangeNotifier;
  const logger = new ServiceBroker({ logger: false }).getLogger('test');

  beforeEach(async () => {
    receiver = await startUpstream();
  });
  afterEach(async () => {
    notifier.stop();
    await receiver.close();
  });

  it('retries while the receiver does not answer 200, then stops', async () => {
    let answers = 0;
    receiver.respondWith((_req, res) => {
      answers++;
      res.writeHead(answers < 2 ? 500 : 200);
      res.end();
    });
    notifier = new KeyChangeNotifier(logger, { retryDelayMs: 5, attempts: 3 });
    notifier.send(`${receiver.url}/hook`, 'sssh', note);
    await eventually(() => assert.equal(receiver.received.length, 2));
    assert.deepEqual(JSON.parse(receiver.received[1].body), note);
    assert.equal(receiver.received[1].headers['x-gw-shared-secret'], 'sssh');
  });

  it('gives up after the last attempt', async () => {
    receiver.respondWith((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    const warnings: string[] = [];
    notifier = new KeyChangeNotifier(
      { ...logger, warn: (message: string) => warnings.push(message) } as unknown as typeof logger,
      { retryDelayMs: 5, attempts: 3 },
    );
    notifier.send(receiver.url, '', note);
    await eventually(() => assert.equal(warnings.length, 1));
    assert.match(warnings[0], /failed 3 times \(status 503\); giving up/);
    assert.equal(receiver.received.length, 3);
  });

  it('stop() drops the retries still pending', async () => {
    receiver.respondWith((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    notifier = new KeyChangeNotifier(logger, { retryDelayMs: 60_000, attempts: 3 });
    notifier.send(receiver.url, '', note);
    await eventually(() => assert.equal(receiver.received.length, 1));
    notifier.stop();
    assert.equal(receiver.received.length, 1);
  });
});
