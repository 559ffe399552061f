import { strict as assert } from 'node:assert';
import type { DrlLoadEvent } from '../../../contracts/limiter/actions';
import { DrlShare } from '../../../services/limiter/lib/drl-share';
import { workerNodeId } from '../../../lib/workers/worker-host';

/** Each node's share, after every node reported `requests` checked in its last second to every other. */
function exchange(nodes: Array<{ id: string; host?: string; requests: number }>): Map<string, DrlShare> {
  const shares = new Map(nodes.map((node) => [node.id, new DrlShare(node.id, () => 0, node.host)]));
  const reports: DrlLoadEvent[] = [];
  for (const node of nodes) {
    const share = shares.get(node.id)!;
    share.setLiveNodes(nodes.map((other) => other.id));
    for (let i = 0; i < node.requests; i++) share.recordRequest();
    reports.push(share.tick());
  }
  for (const share of shares.values()) for (const report of reports) share.receive(report);
  return shares;
}

describe('limiter: the distributed rate limiter counts the workers of a host as one participant', () => {
  const worker = (host: string, index: number, requests: number) => ({
    id: workerNodeId(host, index),
    host,
    requests,
  });

  it('two hosts of two workers each: each worker enforces its host’s summed load over all loads, gateways = 2', () => {
    // Loads after one tick are half the requests: h1 = 10 + 30, h2 = 20 + 40.
    const shares = exchange([worker('h1', 0, 20), worker('h1', 1, 60), worker('h2', 0, 40), worker('h2', 1, 80)]);
    const cases: Array<[string, number]> = [
      ['h1.w0', 40 / 100],
      ['h1.w1', 40 / 100],
      ['h2.w0', 60 / 100],
      ['h2.w1', 60 / 100],
    ];
    for (const [node, fraction] of cases) assert.deepEqual(shares.get(node)!.share(), { fraction, gateways: 2 }, node);
  });

  it('a worker reports its host; a plain node reports none and is a host of its own', () => {
    assert.deepEqual(new DrlShare('h1.w0', () => 0, 'h1').tick(), { node_id: 'h1.w0', load: 0, host_id: 'h1' });
    assert.deepEqual(new DrlShare('plain', () => 0).tick(), { node_id: 'plain', load: 0 });
    const shares = exchange([worker('h1', 0, 2), worker('h1', 1, 2), { id: 'plain', requests: 4 }]);
    // Loads: h1 = 1 + 1, plain = 2.
    assert.deepEqual(shares.get('plain')!.share(), { fraction: 0.5, gateways: 2 });
    assert.deepEqual(shares.get('h1.w1')!.share(), { fraction: 0.5, gateways: 2 });
  });

  it('plain nodes share as before: one participant each', () => {
    const shares = exchange([
      { id: 'a', requests: 60 },
      { id: 'b', requests: 20 },
      { id: 'c', requests: 0 },
    ]);
    // Loads 30, 10 and 0 (counted as 1).
    assert.deepEqual(shares.get('a')!.share(), { fraction: 30 / 41, gateways: 3 });
    assert.deepEqual(shares.get('c')!.share(), { fraction: 1 / 41, gateways: 3 });
  });

  it('a live worker that has not reported yet counts in the host its node id names, as idle', () => {
    const share = new DrlShare('h1.w0', () => 0, 'h1');
    share.setLiveNodes(['h1.w0', 'h1.w1', 'h1.w2', 'h2.w0', 'h2.w1']);
    assert.deepEqual(share.share(), { fraction: 0.5, gateways: 2 });
  });

  it('an idle host counts as one request per second, however many workers it has', () => {
    const shares = exchange([worker('h1', 0, 6), worker('h1', 1, 0), worker('h2', 0, 0), worker('h2', 1, 0)]);
    assert.deepEqual(shares.get('h1.w1')!.share(), { fraction: 3 / 4, gateways: 2 });
    assert.deepEqual(shares.get('h2.w0')!.share(), { fraction: 1 / 4, gateways: 2 });
  });

  it('a host gone silent counts as idle again, and a host that left is no longer counted', () => {
    let now = 0;
    const share = new DrlShare('h1.w0', () => now, 'h1');
    share.setLiveNodes(['h1.w0', 'h2.w0', 'h2.w1']);
    share.receive({ node_id: 'h2.w0', host_id: 'h2', load: 5 });
    share.receive({ node_id: 'h2.w1', host_id: 'h2', load: 4 });
    assert.deepEqual(share.share(), { fraction: 1 / 10, gateways: 2 });
    now += 5_000;
    assert.deepEqual(share.share(), { fraction: 1 / 2, gateways: 2 }, 'reports older than 5 s');
    share.setLiveNodes(['h1.w0']);
    assert.deepEqual(share.share(), { fraction: 1, gateways: 1 });
  });

  it('ignores a load report whose host is of the wrong shape', () => {
    const share = new DrlShare('h1.w0', () => 0, 'h1');
    share.setLiveNodes(['h1.w0', 'b']);
    share.receive({ node_id: 'b', load: 9, host_id: 42 } as never);
    share.receive({ node_id: 'b', load: 9, host_id: null } as never);
    assert.deepEqual(share.share(), { fraction: 0.5, gateways: 2 });
  });
});
