// The flags every headless Chromium of the tests and benchmarks starts with (Debian's Chromium in a
// container: no sandbox, no GPU, nothing fetched or synced in the background, no first-run pages).
// Each launcher adds its own headless mode and anything else it needs.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
