// Stands in for the Workers runtime's `cloudflare:workers` when `npm run docs:api` loads the
// worker's modules in Node: the routes only need the Durable Object base class to exist.
export class DurableObject {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }
}
export const env = {};
