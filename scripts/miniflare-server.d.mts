import type { Miniflare, MiniflareOptions } from 'miniflare';

/** The local development settings (.dev.vars.example) for a Worker on 127.0.0.1:port, `overrides` over them. */
export function devVars(port: number, overrides?: Record<string, string>): Record<string, string>;
/** Bundles worker/dev/index.ts into `outDir` as `wrangler deploy` would; answers the bundle's path. */
export function bundleWorker(outDir: string, options?: { reuse?: boolean }): string;
/** Starts the bundle on 127.0.0.1:`port` with wrangler.toml's bindings; answers the Miniflare, ready. */
export function startMiniflare(options: {
  port: number;
  scriptPath: string;
  persistTo?: string;
  assets?: string;
  vars?: Record<string, string>;
  options?: Partial<MiniflareOptions>;
  onStderr?: (text: string) => void;
}): Promise<Miniflare>;
