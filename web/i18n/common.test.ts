import { describe, expect, it } from 'vitest';
import english from './en-common.json';
import { STARTUP_ENGLISH } from './startup-english';

describe('the common part', () => {
  it("the login page's English for the route error and the offline banner is the catalogue's, word for word", () => {
    expect(STARTUP_ENGLISH.routeError).toEqual(english.common.routeError);
    expect(STARTUP_ENGLISH.offline).toBe(english.common.offline);
  });
});
