import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { remembered } from '../../src/http/remembered.js';

describe('remembered readings (the routing step\'s device, language and country)', () => {
  test('a repeated key is answered without computing again, undefined answers included, and the oldest go past the bound', () => {
    const computed: string[] = [];
    const lengthOf = remembered(2, (key) => { computed.push(key); return key === 'none' ? undefined : key.length; });
    assert.deepEqual([lengthOf('ab'), lengthOf('ab'), lengthOf('none'), lengthOf('none')], [2, 2, undefined, undefined]);
    assert.deepEqual(computed, ['ab', 'none']);
    lengthOf('abc');
    lengthOf('ab');
    assert.deepEqual(computed, ['ab', 'none', 'abc', 'ab'], 'two kept: "ab" was the oldest once "abc" came');
  });
});
