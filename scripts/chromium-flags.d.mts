/** scripts/chromium-flags.mjs: the flags every headless Chromium of the tests and benchmarks starts with. */
export const CHROMIUM_FLAGS: readonly string[];
