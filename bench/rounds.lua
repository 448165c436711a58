-- wrk script for bench/run.sh: 4 writers (one connection each, `wrk -t4 -c4`) posting valid rounds
-- to the JSON round API, each writer to its own night and table, cycling round numbers 1..10 (a
-- round posted again replaces the stored one). Writer data (session cookie, night date, table,
-- players) comes from the generated file named by WRITERS_LUA.
--
-- wrk counts every non-2xx/3xx answer as an error ("Non-2xx or 3xx responses").

local writers = dofile(os.getenv("WRITERS_LUA"))
local next_id = 0

function setup(thread)
  next_id = next_id + 1
  thread:set("writer_id", next_id)
end

local me
local round_no = 0
local seed = 1

-- A small deterministic generator (wrk's Lua has math.random, but its seed is shared).
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end

function init(args)
  me = writers[((writer_id - 1) % #writers) + 1]
  seed = writer_id * 7919
end

function request()
  round_no = (round_no % 10) + 1
  local loser = rand(#me.players) + 1
  local rows = {}
  for i, name in ipairs(me.players) do
    local outs = 0
    local r = rand(100)
    if r >= 97 then outs = 3 elseif r >= 85 then outs = 2 elseif r >= 60 then outs = 1 end
    local hand_outs = 0
    if outs > 0 then hand_outs = math.floor(rand(outs + 1) / 2) end
    local lost = "false"
    if i == loser then lost = "true" end
    rows[#rows + 1] = string.format(
      '{"player":"%s","outs":%d,"hand_outs":%d,"julen":%d,"joker":false,"lost":%s}',
      name, outs, hand_outs, (rand(100) < 8) and 1 or 0, lost)
  end
  local body = '{"results":[' .. table.concat(rows, ",") .. ']}'
  local path = string.format("/api/v1/nights/%s/tables/%d/rounds/%d", me.date, me.table, round_no)
  -- The rounds exist already: replacing them is asked for explicitly (If-Match: *).
  return wrk.format("POST", path, {
    ["Content-Type"] = "application/json",
    ["Cookie"] = me.cookie,
    ["If-Match"] = "*",
  }, body)
end
