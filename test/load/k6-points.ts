// k6's `--out json` lines for tests: http_req_duration points with the script's tags, stamped (as
// k6 does) with the end of the request.
export interface PointSample { ms: number; phase: string; endpoint: string; status: number; latency: number }

export function k6Points(t0: number, samples: PointSample[]): string {
  return samples.map((s) => JSON.stringify({
    type: 'Point', metric: 'http_req_duration',
    data: { time: new Date(t0 + s.ms + s.latency).toISOString(), value: s.latency, tags: { endpoint: s.endpoint, name: s.endpoint, phase: s.phase, status: String(s.status), scenario: s.phase } },
  })).join('\n') + '\n';
}
