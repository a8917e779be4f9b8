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

/** What k6's per-request output adds to its aggregates. */
export interface K6Output {
  /** Every request of the measured phases, as the Node runner records its own (one percentile rule). */
  recorder: Recorder;
  /** dropped_iterations per scenario (= phase): k6 aggregates them per scenario only when a threshold names it. */
  dropped: Partial<Record<PhaseName, number>>;
}

/** Builds a Recorder from the http_req_duration points of the measured phases, and counts dropped iterations per phase. */
export async function recorderFromK6Output(file: string, config: LoadConfig, schedule: Schedule): Promise<Recorder> {
  return (await readK6Output(file, config, schedule)).recorder;
}

export async function readK6Output(file: string, config: LoadConfig, schedule: Schedule): Promise<K6Output> {
  return readK6Outputs([file], config, schedule);
}

/**
 * The same from several runners of one split run (execution segments), pooled: every runner's
 * samples in one recorder on one time axis (the earliest sample of any runner is time zero), every
 * runner's setup requests, the dropped iterations summed. So the percentiles are those of all the
 * raw samples, and the onset counts what every runner sent, as the limiter saw it.
 */
export async function readK6Outputs(files: string[], config: LoadConfig, schedule: Schedule): Promise<K6Output> {
  const points: Array<{ t: number; phase: PhaseName; operationId: string; status: number; ms: number }> = [];
  const setup: number[] = [];
  const dropped: Partial<Record<PhaseName, number>> = {};
  for (const file of files) await readPoints(file, points, setup, dropped);
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
  return { recorder, dropped };
}

async function readPoints(file: string, points: Array<{ t: number; phase: PhaseName; operationId: string; status: number; ms: number }>, setup: number[], dropped: Partial<Record<PhaseName, number>>): Promise<void> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    const duration = line.includes('"http_req_duration"');
    if (!duration && !line.includes('"dropped_iterations"')) continue;
    let p: K6Point;
    try { p = JSON.parse(line) as K6Point; } catch { continue; }
    if (p.type !== 'Point') continue;
    const tags = p.data.tags ?? {};
    if (p.metric === 'dropped_iterations') {
      if (tags.scenario === 'steady' || tags.scenario === 'ramp') dropped[tags.scenario] = (dropped[tags.scenario] ?? 0) + p.data.value;
      continue;
    }
    if (p.metric !== 'http_req_duration') continue;
    // k6 stamps an HTTP sample with the end of the request: it was sent its duration earlier.
    const t = Date.parse(p.data.time) - p.data.value;
    if (tags.phase === 'setup') { setup.push(t); continue; }
    if (tags.phase !== 'steady' && tags.phase !== 'ramp') continue;
    points.push({ t, phase: tags.phase, operationId: tags.endpoint ?? tags.name ?? 'unknown', status: Number(tags.status) || 0, ms: p.data.value });
  }
}
