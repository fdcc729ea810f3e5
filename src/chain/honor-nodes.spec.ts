import { describe, expect, it } from 'vitest';
import { parseHonorNodes } from './platform-parameters.service';

describe('parseHonorNodes: the platform parameter honor_nodes', () => {
  it('reads each entry, with the defaults of missing members', () => {
    expect(
      parseHonorNodes(
        '[{"tcp_address":"a:7078","api_address":"http://a:7079","public_key":"04ab","stopped":true}]',
      ),
    ).toEqual([
      {
        tcp_address: 'a:7078',
        api_address: 'http://a:7079',
        public_key: '04ab',
        unban_time: '0',
        stopped: true,
      },
    ]);
  });

  it('reads a null entry as an empty one, as Go unmarshals it (it was a TypeError answered as E_RECOVERED)', () => {
    expect(parseHonorNodes('[null]')).toEqual([
      { tcp_address: '', api_address: '', public_key: '', unban_time: '0', stopped: false },
    ]);
  });

  it('has no nodes when the text is not a list of objects', () => {
    for (const text of ['', 'x', '{}', '[1]', '["a"]', '[[]]'])
      expect(parseHonorNodes(text), text).toEqual([]);
  });
});
