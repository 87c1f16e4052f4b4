/** scripts/mail-stub.mjs: a Resend-shaped stub on the loopback address for the tests. */
export function startMailStub(options?: { apiKey?: string; port?: number }): Promise<{ url: string; apiKey: string; stop: () => Promise<void> }>;
