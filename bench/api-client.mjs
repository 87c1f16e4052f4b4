// The JSON calls of the small benchmarks (bench/live-fanout.mjs, bench/filters-import.mjs, bench/shards.mjs).

/**
 * `api(method, path, body?, token?)` against `base`: the answer's JSON, or an error naming the call
 * and its status. A kept-alive socket the runtime closed while a long call (the seeder) ran fails
 * the next call with ECONNRESET before it is answered: that call is sent once more.
 */
export const apiClient = (base) =>
  async function api(method, urlPath, body, token) {
    const send = () =>
      fetch(base + urlPath, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const res = await send().catch((err) => (err?.cause?.code === 'ECONNRESET' ? send() : Promise.reject(err)));
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
