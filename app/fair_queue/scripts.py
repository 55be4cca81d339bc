"""The fair queue's state changes, as Lua scripts: each runs atomically in Redis, so any number of
API processes and workers, on any hosts, can queue, start and end jobs at once.

State (besides ARQ's own keys, see `app.fair_queue._arq`), under `sibyl:fair:`:

* `waiting:<org>` — sorted set: the organisation's jobs waiting their turn, in arrival order;
* `orgs` — sorted set: organisations with waiting jobs, the one served longest ago first (the
  round-robin order);
* `holds:<org>` — sorted set: the organisation's jobs that hold one of its places, scored by when
  the hold lapses: a running job's lease (renewed by its worker), `+inf` for a job let through and
  not yet started (it holds its place while ARQ still has it);
* `running` — sorted set: every running job, scored by its lease (for queue positions);
* `job:<id>` — hash: the job's organisation and the ids (report, run) it can be looked up by;
* `subject:<id>` — the job last queued for a report or run;
* `limit` — ORG_MAX_RUNNING_JOBS as the workers last published it; absent: no limit.

A waiting job sits in ARQ's queue scored `PARKED_MS` ahead, so ARQ's workers leave it alone and
`Job.status()` calls it deferred; letting it through re-scores it to now. Were its turn ever lost,
it would still start when that score comes, and wait again (without using a try) if its
organisation is still full.
"""

from __future__ import annotations

import hashlib
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import NoScriptError

from app.fair_queue._arq import JOB_EXPIRES_EXTRA_MS, LUA_CONSTANTS

#: How far ahead a waiting job is scored in ARQ's queue (the safety net's delay, see above).
PARKED_MS = 3_600_000
#: The job records and look-ups live as long as ARQ keeps a waiting job's own record.
RECORD_TTL_MS = PARKED_MS + JOB_EXPIRES_EXTRA_MS
#: A published limit is forgotten this long after the last worker stopped publishing it.
LIMIT_TTL_MS = 30_000
#: Waiting jobs passed over per organisation while they finish the run that made them wait.
SKIP_MAX = 8
#: Where a job's owner is kept (hash: `org`, `subjects` — its report first — and, while it runs,
#: `worker`: the lease owner name of the process running it, see `app.services.lease`).
RECORD_PREFIX = "sibyl:fair:job:"
#: Every running job, scored by when its lease lapses.
RUNNING_KEY = "sibyl:fair:running"
#: ORG_MAX_RUNNING_JOBS as the workers last published it.
LIMIT_KEY = "sibyl:fair:limit"

LIBRARY = f"""
local FAIR = 'sibyl:fair:'
local LIMIT = '{LIMIT_KEY}'
local SEQ = FAIR .. 'seq'
local ORGS = FAIR .. 'orgs'
local RUNNING = '{RUNNING_KEY}'
local PARKED_MS = {PARKED_MS}
local RECORD_TTL_MS = {RECORD_TTL_MS}
local LIMIT_TTL_MS = {LIMIT_TTL_MS}
local SKIP_MAX = {SKIP_MAX}
local UNLIMITED = 1000000000

local function holds_key(org) return FAIR .. 'holds:' .. org end
local function waiting_key(org) return FAIR .. 'waiting:' .. org end
local function record_key(job) return '{RECORD_PREFIX}' .. job end
local function subject_key(subject) return FAIR .. 'subject:' .. subject end
local function ms(value) return string.format('%.0f', value) end

local function remember(job, org, subjects)
  local record = record_key(job)
  redis.call('HSET', record, 'org', org, 'subjects', table.concat(subjects, ' '))
  redis.call('PEXPIRE', record, RECORD_TTL_MS)
  for _, subject in ipairs(subjects) do
    redis.call('SET', subject_key(subject), job, 'PX', RECORD_TTL_MS)
  end
end

local function forget(job)
  local record = record_key(job)
  local subjects = redis.call('HGET', record, 'subjects')
  if subjects then
    for subject in string.gmatch(subjects, '%S+') do
      if redis.call('GET', subject_key(subject)) == job then redis.call('DEL', subject_key(subject)) end
    end
  end
  redis.call('DEL', record)
end

-- A hold ends when its lease lapses (the worker died) or ARQ no longer has its job (it ended).
local function live_holds(org, now)
  local key = holds_key(org)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ms(now))
  for _, job in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    if not redis.call('ZSCORE', ARQ_QUEUE, job) then redis.call('ZREM', key, job) end
  end
  return redis.call('ZCARD', key)
end

local function free_places(org, limit, now)
  if limit == 0 then return UNLIMITED end
  return limit - live_holds(org, now)
end

local function wait_turn(org, job)
  local key = waiting_key(org)
  if not redis.call('ZSCORE', key, job) then redis.call('ZADD', key, redis.call('INCR', SEQ), job) end
  redis.call('ZADD', ORGS, 'NX', redis.call('INCR', SEQ), org)
end

-- Lets up to `places` of the organisation's waiting jobs through, oldest first, scored `score`,
-- `score + 1`, ... A job still in progress is finishing the run that made it wait, and ARQ
-- re-scores it when that run ends, so it is left for a later turn.
local function let_through(org, places, now, score)
  local key = waiting_key(org)
  local promoted = 0
  if places > 0 then
    for _, job in ipairs(redis.call('ZRANGE', key, 0, places + SKIP_MAX - 1)) do
      if promoted == places then break end
      if not redis.call('ZSCORE', ARQ_QUEUE, job) then
        redis.call('ZREM', key, job)
      elseif redis.call('EXISTS', ARQ_IN_PROGRESS .. job) == 0 then
        redis.call('ZADD', ARQ_QUEUE, 'XX', ms(score + promoted), job)
        redis.call('ZADD', holds_key(org), '+inf', job)
        redis.call('ZREM', key, job)
        promoted = promoted + 1
      end
    end
  end
  if redis.call('ZCARD', key) == 0 then
    redis.call('ZREM', ORGS, org)
  elseif promoted > 0 then
    redis.call('ZADD', ORGS, 'XX', redis.call('INCR', SEQ), org)
  end
  return promoted
end
"""

#: ARGV: job id, ARQ job record, now (ms), organisation, subject ids… Returns 1 if queued, 0 if
#: a job of that id is already queued (or its result kept).
ENQUEUE = """
local job, record, now, org = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
if redis.call('EXISTS', ARQ_JOB .. job, ARQ_RESULT .. job) > 0 then return 0 end
redis.call('SET', ARQ_JOB .. job, record, 'PX', PARKED_MS + ARQ_EXPIRES_EXTRA_MS)
redis.call('ZADD', ARQ_QUEUE, ms(now + PARKED_MS), job)
remember(job, org, {unpack(ARGV, 5)})
wait_turn(org, job)
let_through(org, free_places(org, tonumber(redis.call('GET', LIMIT) or '0'), now), now, now)
return 1
"""

#: ARGV: job id, now (ms), limit, lease (ms), organisation, worker, subject ids… Returns 1 when
#: the job holds a place and may run, 0 when it waits its turn (its start is not counted as a try).
TAKE = """
local job, now, limit, lease, org = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
redis.call('ZREMRANGEBYSCORE', RUNNING, '-inf', ms(now))
remember(job, org, {unpack(ARGV, 7)})
redis.call('HSET', record_key(job), 'worker', ARGV[6])
if limit > 0 then
  local held = live_holds(org, now)
  if held >= limit and not redis.call('ZSCORE', holds_key(org), job) then
    wait_turn(org, job)
    redis.call('DECR', ARQ_RETRY .. job)
    redis.call('PEXPIRE', ARQ_JOB .. job, PARKED_MS + ARQ_EXPIRES_EXTRA_MS)
    return 0
  end
  redis.call('ZADD', holds_key(org), ms(now + lease), job)
end
redis.call('ZADD', RUNNING, ms(now + lease), job)
local key = waiting_key(org)
if redis.call('ZREM', key, job) == 1 and redis.call('ZCARD', key) == 0 then redis.call('ZREM', ORGS, org) end
return 1
"""

#: ARGV: job id, now (ms), limit, lease (ms), organisation.
RENEW = """
local expiry = ms(tonumber(ARGV[2]) + tonumber(ARGV[4]))
if tonumber(ARGV[3]) > 0 then redis.call('ZADD', holds_key(ARGV[5]), expiry, ARGV[1]) end
redis.call('ZADD', RUNNING, expiry, ARGV[1])
return 1
"""

#: ARGV: job id, now (ms), limit, organisation, 1 when ARQ is done with the job. Returns how many
#: of the organisation's waiting jobs were let through.
RELEASE = """
local job, now, limit, org = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREM', holds_key(org), job)
redis.call('ZREM', RUNNING, job)
if ARGV[5] == '1' then forget(job) end
return let_through(org, free_places(org, limit, now), now, now)
"""

#: ARGV: now (ms), limit. Publishes the limit, then lets waiting jobs through wherever a place is
#: free, one per organisation per round. Returns how many were let through.
DISPATCH = """
local now, limit = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('SET', LIMIT, ARGV[2], 'PX', LIMIT_TTL_MS)
local orgs = redis.call('ZRANGE', ORGS, 0, -1)
local places = {}
for i, org in ipairs(orgs) do places[i] = free_places(org, limit, now) end
local score, progressed = now, true
while progressed do
  progressed = false
  for i, org in ipairs(orgs) do
    if places[i] > 0 then
      if let_through(org, 1, now, score) == 1 then
        places[i], score, progressed = places[i] - 1, score + 1, true
      else
        places[i] = 0
      end
    end
  end
end
return score - now
"""

#: ARGV: subject id, now (ms). Returns the jobs ahead (see `queue_position`), or -1. ARQ starts
#: due jobs in `arq:queue` order (score, then id), which is what ZRANK counts.
POSITION = """
local subject, now = ARGV[1], tonumber(ARGV[2])
local job = redis.call('GET', subject_key(subject))
if not job or redis.call('EXISTS', ARQ_IN_PROGRESS .. job) == 1 then return -1 end
local score = redis.call('ZSCORE', ARQ_QUEUE, job)
if not score then return -1 end
local function not_running(first_ranks)
  local running = 0
  for _, other in ipairs(redis.call('ZRANGEBYSCORE', RUNNING, ms(now), '+inf')) do
    local rank = redis.call('ZRANK', ARQ_QUEUE, other)
    if rank and rank < first_ranks then running = running + 1 end
  end
  return first_ranks - running
end
if tonumber(score) <= now then return not_running(redis.call('ZRANK', ARQ_QUEUE, job)) end
local ahead = not_running(redis.call('ZCOUNT', ARQ_QUEUE, '-inf', ms(now)))
local org = redis.call('HGET', record_key(job), 'org')
local rank = org and redis.call('ZRANK', waiting_key(org), job)
if not rank then return ahead end
ahead = ahead + rank
for _, other in ipairs(redis.call('ZRANGE', ORGS, 0, -1)) do
  if other ~= org then ahead = ahead + math.min(redis.call('ZCARD', waiting_key(other)), rank) end
end
return ahead
"""


class LuaScript:
    """One script with the shared constants and functions before it, run by its SHA once Redis
    has it."""

    def __init__(self, body: str) -> None:
        self.source = LUA_CONSTANTS + LIBRARY + body
        self.sha = hashlib.sha1(self.source.encode()).hexdigest()

    async def __call__(self, redis: Redis, *args: str | int | bytes) -> Any:
        client: Any = redis  # redis-py types script arguments as str only; bytes are sent as they are
        try:
            return await client.evalsha(self.sha, 0, *args)
        except NoScriptError:
            return await client.eval(self.source, 0, *args)


enqueue_script = LuaScript(ENQUEUE)
take_script = LuaScript(TAKE)
renew_script = LuaScript(RENEW)
release_script = LuaScript(RELEASE)
dispatch_script = LuaScript(DISPATCH)
position_script = LuaScript(POSITION)
