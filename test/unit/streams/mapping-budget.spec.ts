import { strict as assert } from 'node:assert';
import { newMessage } from '../../../services/streams/lib/message';
import { compileMapping, type MappingSite } from '../../../services/streams/lib/processors/mapping';
import { BranchProcessor, MappingProcessor } from '../../../services/streams/lib/processors/processors';
import { SwitchProcessor } from '../../../services/streams/lib/processors/processors';
import { ConnectorCounters } from '../../../services/streams/lib/stats';

const HEAVY = 'root = range(0, 900000).map_each(x -> x * 2).length()';
const CUT_OFF = 'mapping exceeded its time budget of 50 ms';

function site(where: string): MappingSite & { lines: string[] } {
  const lines: string[] = [];
  const counters = new ConnectorCounters('processor.0', 'mapping', undefined);
  return { where, counters, log: (level, message) => lines.push(`${level} ${message}`), lines };
}

const mapping = (text: string) => compileMapping(text, 'test');

/** Processors running tenant mappings: a message cut off is flagged, counted, named in stats and logs. */
describe('streams: mappings past their time budget', () => {
  it('flags the message, counts it, logs one line naming stream, processor and limit', async () => {
    const s = site('stream orders processor.0 (mapping)');
    const [out] = await new MappingProcessor(mapping(HEAVY), s).process([newMessage('original')]);
    assert.equal(out.content.toString(), 'original');
    assert.equal(out.error, CUT_OFF);
    assert.deepEqual(s.lines, [`warn stream orders processor.0 (mapping): message 1 cut off: ${CUT_OFF}`]);
    const stats = s.counters.snapshot();
    assert.equal(stats.errors, 1);
    assert.equal(stats.last_error, `message 1: ${CUT_OFF}`);
  });

  it('gives the event loop a turn between two long evaluations of one batch', async () => {
    const processor = new MappingProcessor(mapping(HEAVY), site('s'));
    let timerRan = false;
    const timer = setTimeout(() => (timerRan = true), 0);
    const out = await processor.process([newMessage('a'), newMessage('b'), newMessage('c')]);
    clearTimeout(timer);
    assert.equal(out.length, 3);
    assert.ok(timerRan, 'the batch held the event loop from start to end');
  });

  it('a branch request_map and a switch check are cut off the same way', async () => {
    const branchSite = site('stream s processor.0 (branch)');
    const branch = new BranchProcessor(mapping(HEAVY), [], undefined, branchSite);
    const [branched] = await branch.process([newMessage('b')]);
    assert.equal(branched.error, CUT_OFF);
    assert.deepEqual(branchSite.lines, [`warn stream s processor.0 (branch): message 1 cut off: ${CUT_OFF}`]);

    const switchSite = site('stream s processor.1 (switch)');
    const cases = [{ check: mapping(`${HEAVY} > 0`), processors: [], fallthrough: false }];
    const [switched] = await new SwitchProcessor(cases, switchSite).process([newMessage('s')]);
    assert.equal(switched.error, CUT_OFF);
    assert.equal(switchSite.counters.snapshot().last_error, `message 1: ${CUT_OFF}`);
  });

  it('an ordinary failure is flagged and counted but not logged', async () => {
    const s = site('s');
    const processor = new MappingProcessor(mapping('root = this.missing.uppercase()'), s);
    const [out] = await processor.process([newMessage('{}')]);
    assert.match(out.error ?? '', /expected string value, got null/);
    assert.deepEqual(s.lines, []);
    assert.match(s.counters.snapshot().last_error ?? '', /^message 1: failed assignment/);
  });
});
