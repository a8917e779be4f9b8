// Reads k6's JSON output (`k6 run --out json=FILE`: one JSON object per line, a "Point" per
// sample) into the Recorder, for what k6's end-of-test aggregates lack: the timeline, the latency
// histograms and the time and endpoint of the first 429.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { LoadConfig } from '../model/config.ts';
import type { PhaseName, Schedule } from '../model/schedule.ts';
import { Recorder } from '../node/recorder.ts';

interface K6Point {
  type: string;
  metric: string;
  data: { time: string; value: number; tags?: Record<string, string> };
}

/** Builds a Recorder from the http_req_duration points of the measured phases. */
export async function recorderFromK6Output(file: string, config: LoadConfig, schedule: Schedule): Promise<Recorder> {
  const points: Array<{ t: number; phase: PhaseName; operationId: string; status: number; ms: number }> = [];
  const setup: number[] = [];
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.includes('"http_req_duration"')) continue;
    let p: K6Point;
    try { p = JSON.parse(line) as K6Point; } catch { continue; }
    if (p.type !== 'Point' || p.metric !== 'http_req_duration') continue;
    const tags = p.data.tags ?? {};
    // k6 stamps an HTTP sample with the end of the request: it was sent its duration earlier.
    const t = Date.parse(p.data.time) - p.data.value;
    if (tags.phase === 'setup') { setup.push(t); continue; }
    if (tags.phase !== 'steady' && tags.phase !== 'ramp') continue;
    points.push({ t, phase: tags.phase, operationId: tags.endpoint ?? tags.name ?? 'unknown', status: Number(tags.status) || 0, ms: p.data.value });
  }
  points.sort((a, b) => a.t - b.t);
  // The steady phase's first arrival is due at its start: the earliest sample marks time zero.
  const t0 = points.length ? points[0].t : 0;
  const recorder = new Recorder(config, schedule, setup.map((t) => t - t0));
  for (const p of points) {
    const sentMs = p.t - t0;
    recorder.recordSend(p.phase, sentMs, sentMs);
    // k6 records no Retry-After per sample; the script's retry_after_on_429 rate covers it.
    recorder.recordOutcome({ phase: p.phase, operationId: p.operationId, sentMs, status: p.status, serviceMs: p.ms, hasRetryAfter: true });
  }
  return recorder;
}
