/** scripts/fmcsa-stand-in.mjs: a local stand-in for FMCSA's QCMobile API (development and tests). */
export const STAND_IN_WEBKEY: string;
export const BROKERS: Record<string, Record<string, string>>;
export function startFmcsaStandIn(options?: { port?: number; webKey?: string }): Promise<StandIn>;
export interface StandIn {
  port: number;
  url: string;
  control: string;
  webKey: string;
  stop: () => Promise<void>;
}
export function startDevStandIn(options: { port: number; webKey?: string; path?: string; log?: (line: string) => void }): Promise<StandIn>;
