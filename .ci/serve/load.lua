-- wrk script for `chaff serve`'s load figures: each request posts the next page of a list
-- (one file path per line, given after `--`), rotating through them; each thread starts at
-- its own offset. Prints the latency percentiles at the end.
local bodies = {}
local next_page = 0
local counter = 0

function setup(thread)
  thread:set("offset", counter)
  counter = counter + 1
end

function init(args)
  for path in io.lines(args[1]) do
    local f = assert(io.open(path, "rb"))
    bodies[#bodies + 1] = f:read("*a")
    f:close()
  end
  next_page = (offset or 0) * 37 % #bodies
end

function request()
  next_page = next_page % #bodies + 1
  return wrk.format("POST", "/v1/extract?format=text", { ["Content-Type"] = "text/html" }, bodies[next_page])
end

function done(summary, latency, requests)
  io.write(string.format("requests: %d, non-2xx: %d, socket errors: %d\n",
    summary.requests, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  for _, p in ipairs({ 50, 90, 99 }) do
    io.write(string.format("p%d latency: %.1f ms\n", p, latency:percentile(p) / 1000))
  end
  io.write(string.format("throughput: %.1f requests/s\n", summary.requests / (summary.duration / 1e6)))
end
