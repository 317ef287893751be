import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findDuplicateKey } from '../../src/http/json-body-parser.js';

describe('duplicate keys in a JSON body', () => {
  test('keys repeated in one object are found, wherever the object is nested', () => {
    assert.equal(findDuplicateKey('{"a":1,"a":2}'), 'a');
    assert.equal(findDuplicateKey('{"x":[{"b":1},{"c":{"d":1,"e":[],"d":2}}]}'), 'd');
    assert.equal(findDuplicateKey('{"a":1,"\\u0061":2}'), 'a', 'an escaped spelling is the same key');
  });

  test('equal keys in different objects, and values that look like keys, are not duplicates', () => {
    assert.equal(findDuplicateKey('[{"a":1},{"a":2}]'), undefined);
    assert.equal(findDuplicateKey('{"a":{"a":{"a":1}},"b":"a"}'), undefined);
    assert.equal(findDuplicateKey('{"a":"\\",\\"a\\":","b":["a","a"],"c":"{\\"a\\":1,\\"a\\":2}"}'), undefined);
  });

  test('no text JSON.stringify produces has a duplicate key', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => findDuplicateKey(JSON.stringify(value)) === undefined), { numRuns: 2000 });
  });

  test('a key added again to any object is found', () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.nat(), (object, pick) => {
      const keys = Object.keys(object);
      const key = keys[pick % keys.length]!;
      const text = JSON.stringify(object);
      return findDuplicateKey(`${text.slice(0, -1)},${JSON.stringify(key)}:null}`) === key;
    }), { numRuns: 2000 });
  });
});
