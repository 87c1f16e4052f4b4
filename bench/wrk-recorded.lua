-- wrk 4.1 script for bench/load.mjs: prints one JSON line with the latencies as RECORDED.
--
-- wrk's own percentiles (its report and the `latency` object `done` receives) include samples it
-- adds after the run for coordinated omission: wrk.c calls stats_correct(latency, interval) with
-- interval = runtime_us / (requests / connections), which adds, for every recorded latency n >= 2
-- intervals, one sample at n - interval, n - 2 intervals, ... down to just above one interval.
-- The Lua object exposes only min, max, mean, stdev, percentile() (all on that corrected histogram)
-- and an O(range) iterator, so this script reads the histogram itself through LuaJIT's FFI
-- (the userdata holds a `stats *`: count, limit, min, max, then one uint64 bin per microsecond)
-- and undoes the correction exactly: bins at or below one interval are untouched, and above it
-- corrected[m] = recorded[m] + corrected[m + interval], so recorded[m] = corrected[m] - corrected[m + interval].
-- The total of the recovered bins is checked against the number of answers (printed beside it).
--
-- Arguments (after `--`): the connection count (for the interval) and the expected status (302).
local ffi = require('ffi')

connections, expected = 64, 302
local threads = {}

function init(args)
  connections = tonumber(args[1]) or connections
  expected = tonumber(args[2]) or expected
  expectedCount, otherCount = 0, 0
end

function setup(thread)
  table.insert(threads, thread)
end

function response(status, headers, body)
  if status == expected then expectedCount = expectedCount + 1 else otherCount = otherCount + 1 end
end

function done(summary, latency, requests)
  -- init() ran in the threads' Lua states, not in this one: ask a thread for the arguments
  if threads[1] then connections = threads[1]:get('connections') end
  local p = ffi.cast('uint64_t **', latency)[0]
  local total, min, max = tonumber(p[0]), tonumber(p[2]), tonumber(p[3])
  local data = p + 4
  local perConn = math.floor(summary.requests / connections)
  local interval = perConn > 0 and math.floor(summary.duration / perConn) or 0
  local bins = {}
  local recorded = 0
  if total > 0 then
    for m = min, max do
      local c = tonumber(data[m])
      if m > interval and interval > 0 and m + interval <= max then c = c - tonumber(data[m + interval]) end
      if c > 0 then
        bins[#bins + 1] = m
        bins[#bins + 1] = c
        recorded = recorded + c
      end
    end
  end
  local function pct(q)
    local rank = math.max(1, math.ceil(q / 100 * recorded))
    local seen = 0
    for i = 1, #bins, 2 do
      seen = seen + bins[i + 1]
      if seen >= rank then return bins[i] end
    end
    return 0
  end
  local ok, other = 0, 0
  for _, t in ipairs(threads) do
    ok = ok + t:get('expectedCount')
    other = other + t:get('otherCount')
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"recorded":%d,"correctedTotal":%d,"interval":%d,' ..
      '"p50Us":%d,"p99Us":%d,"maxUs":%d,"correctedP99Us":%d,"ok":%d,"other":%d,' ..
      '"connect":%d,"read":%d,"write":%d,"timeout":%d,"status":%d}\n',
    summary.requests, summary.duration, recorded, total, interval,
    pct(50), pct(99), recorded > 0 and bins[#bins - 1] or 0, latency:percentile(99), ok, other,
    e.connect, e.read, e.write, e.timeout, e.status))
end
