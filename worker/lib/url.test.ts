import { describe, expect, it } from 'vitest';
import { pathOf } from './url';

describe('pathOf', () => {
  it('answers the path of an absolute URL as URL.pathname does, without its query', () => {
    for (const url of [
      'https://fd.example/s/AbC123x',
      'https://fd.example/s/AbC123x?utm=1&x=/y',
      'http://127.0.0.1:8787/api/dev/seed',
      'https://fd.example/',
      'https://fd.example/s/',
      'http://[::1]:8787/s/abc?q',
    ])
      expect(pathOf(url)).toBe(new URL(url).pathname);
  });
});
