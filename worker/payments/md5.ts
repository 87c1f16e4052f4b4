import { toHex } from '../lib/ids';

/** MD5 hex of UTF-8 text (Idram's EDP_CHECKSUM). workerd's WebCrypto digests MD5. */
export async function md5Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest('MD5', new TextEncoder().encode(text)));
}
