// Debian's Chromium in a container: no sandbox, no GPU, nothing fetched or synced in the background.
// Each launcher adds its own headless mode.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
