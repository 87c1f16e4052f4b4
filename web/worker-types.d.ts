// The API clients are typed from the worker's route files (lib/api.ts), so those files, and
// what they import, are part of the web's type check. They name Cloudflare's binding types as
// globals; this gives them those names from the importable edition of @cloudflare/workers-types
// instead of adding the Workers runtime's globals, which clash with the DOM's (Element, fetch).
// Types only: nothing here reaches the bundle.
type D1Database = import('@cloudflare/workers-types/index.ts').D1Database;
type D1DatabaseSession = import('@cloudflare/workers-types/index.ts').D1DatabaseSession;
type KVNamespace = import('@cloudflare/workers-types/index.ts').KVNamespace;
type Fetcher = import('@cloudflare/workers-types/index.ts').Fetcher;
type DurableObjectState = import('@cloudflare/workers-types/index.ts').DurableObjectState;
type DurableObjectNamespace<T extends import('@cloudflare/workers-types/index.ts').Rpc.DurableObjectBranded | undefined = undefined> =
  import('@cloudflare/workers-types/index.ts').DurableObjectNamespace<T>;

declare module 'cloudflare:workers' {
  export type DurableObject<Env = unknown> = import('@cloudflare/workers-types/index.ts').CloudflareWorkersModule.DurableObject<Env>;
  export const DurableObject: typeof import('@cloudflare/workers-types/index.ts').CloudflareWorkersModule.DurableObject;
}
// worker/index.ts is part of the check too (worker-configuration.d.ts, which wrangler types
// generates, names the Durable Object classes through it): its handler, with the DOM's Request
type ExportedHandler<Env = unknown, QueueMessage = unknown> = {
  fetch?(request: Request, env: Env, ctx: import('@cloudflare/workers-types/index.ts').ExecutionContext): Response | Promise<Response>;
  scheduled?(
    controller: import('@cloudflare/workers-types/index.ts').ScheduledController,
    env: Env,
    ctx: import('@cloudflare/workers-types/index.ts').ExecutionContext,
  ): void | Promise<void>;
  queue?(
    batch: import('@cloudflare/workers-types/index.ts').MessageBatch<QueueMessage>,
    env: Env,
    ctx: import('@cloudflare/workers-types/index.ts').ExecutionContext,
  ): void | Promise<void>;
};
// the mail queue (worker/mail/) and the Email Service binding (worker/env.ts), and the names lib/sentry.ts and jobs.ts use
type Queue<Body = unknown> = import('@cloudflare/workers-types/index.ts').Queue<Body>;
type MessageBatch<Body = unknown> = import('@cloudflare/workers-types/index.ts').MessageBatch<Body>;
type SendEmail = import('@cloudflare/workers-types/index.ts').SendEmail;
type ExecutionContext = import('@cloudflare/workers-types/index.ts').ExecutionContext;
type ScheduledController = import('@cloudflare/workers-types/index.ts').ScheduledController;
// the team's live object (worker/team/team-live.ts): the runtime's WebSocket pair and auto-response, and its stub
declare const WebSocketPair: typeof import('@cloudflare/workers-types/index.ts').WebSocketPair;
declare const WebSocketRequestResponsePair: typeof import('@cloudflare/workers-types/index.ts').WebSocketRequestResponsePair;
type DurableObjectStub<T extends import('@cloudflare/workers-types/index.ts').Rpc.DurableObjectBranded | undefined = undefined> =
  import('@cloudflare/workers-types/index.ts').DurableObjectStub<T>;
type WorkerRequest = import('@cloudflare/workers-types/index.ts').Request;
type WorkerResponse = import('@cloudflare/workers-types/index.ts').Response;
type WorkerWebSocket = import('@cloudflare/workers-types/index.ts').WebSocket;
