import { strict as assert } from 'node:assert';
import { installOutboundPolicy, outboundPolicy } from '../../../lib/net/outbound-policy';
import { checkBrokerAddress, pinnedBrokerUrl } from '../../../services/streams/connectors/broker-address';

const env = { ownPorts: () => new Set<number>() };
const PRIVATE = 'a loopback or private-network address';

describe('streams: broker addresses under the outbound policy', () => {
  let release: () => void = () => undefined;
  afterEach(() => release());

  it('deny-private refuses a broker on loopback, by address or by a name resolving there', async () => {
    release = installOutboundPolicy(outboundPolicy('deny-private'));
    await assert.rejects(checkBrokerAddress('127.0.0.1', 5672, env), {
      message: `A stream may not call 127.0.0.1:5672: ${PRIVATE}`,
    });
    await assert.rejects(checkBrokerAddress('localhost', 4222, env), {
      message: `A stream may not call localhost:4222: ${PRIVATE}`,
    });
    await assert.rejects(pinnedBrokerUrl('nats://10.0.0.8:4222', 4222, ['nats:'], env), new RegExp(PRIVATE));
  });

  it('an allow-listed name passes, and a plain URL is dialled at the address that was judged', async () => {
    release = installOutboundPolicy(outboundPolicy('deny-private', ['localhost']));
    const pinned = await pinnedBrokerUrl('nats://user:pw@localhost:4222', 4222, ['nats:'], env);
    assert.match(pinned, /^nats:\/\/user:pw@(127\.0\.0\.1|\[::1\]):4222$/);
    assert.equal(await pinnedBrokerUrl('mqtts://localhost:8883', 8883, ['mqtt:'], env), 'mqtts://localhost:8883');
    assert.match(await pinnedBrokerUrl('localhost:4222', 4222, ['tcp:'], env), /^(127\.0\.0\.1|\[::1\]):4222$/);
  });

  it("'allow' refuses only link-local and metadata addresses", async () => {
    release = installOutboundPolicy(outboundPolicy('allow'));
    assert.deepEqual(await checkBrokerAddress('10.0.0.8', 9092, env), ['10.0.0.8']);
    await assert.rejects(
      checkBrokerAddress('169.254.169.254', 9092, env),
      /a link-local, cloud-metadata or multicast address/,
    );
  });
});
