// The JSON calls of the small benchmarks (bench/live-fanout.mjs, bench/filters-import.mjs).

/** `api(method, path, body?, token?)` against `base`: the answer's JSON, or an error naming the call and its status. */
export const apiClient = (base) =>
  async function api(method, urlPath, body, token) {
    const res = await fetch(base + urlPath, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
