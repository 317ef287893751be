-- wrk script for bench/memory.ts: asks for each code of the file once, in order, and prints
-- WALK_DONE once as many responses as codes have come back (the caller then stops wrk with SIGINT;
-- the few requests in flight by then ask for the first codes again).
--   wrk -t1 -c32 -d600s -s walk.lua http://127.0.0.1:PORT -- CODES_FILE
require('wrk-result')
local paths = {}
local sent, answered = 0, 0

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then paths[#paths + 1] = '/' .. line end
  end
end

function request()
  sent = sent + 1
  return wrk.format('GET', paths[(sent - 1) % #paths + 1])
end

function response()
  answered = answered + 1
  if answered == #paths then
    io.write('WALK_DONE\n')
    io.flush()
  end
end
