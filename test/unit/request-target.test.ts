import { test } from 'node:test';
import assert from 'node:assert/strict';
import { originForm } from '../../src/http/request-target.js';

test('an absolute-form target becomes its path and query, whatever host it names', () => {
  assert.equal(originForm('http://sho.rt/abc'), '/abc');
  assert.equal(originForm('HTTPS://other.example:8443/abc/?q=1'), '/abc/?q=1');
  assert.equal(originForm('http://[::1]:80/abc'), '/abc');
  assert.equal(originForm('http://sho.rt'), '/');
  assert.equal(originForm('http://sho.rt?q=1'), '/?q=1');
});

test('targets that are not http(s) absolute-form are left for the router', () => {
  for (const target of ['/abc', '*', 'ftp://sho.rt/abc', 'sho.rt:443', 'abc']) assert.equal(originForm(target), target);
});
