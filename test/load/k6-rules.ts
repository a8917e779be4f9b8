// How k6 (v1.x, metrics/thresholds.go and metrics/sink.go) evaluates a threshold at the end of a
// run, written from its rules to judge our bundles' thresholds on samples a test feeds them:
// - every threshold is evaluated, on empty metrics too;
// - a Trend's min, max, avg, med and p(N) are 0 when it is empty; p(N) interpolates linearly
//   between the sorted samples;
// - a Rate is the share of non-zero samples; an empty Rate has no value, and its thresholds pass;
// - a Counter's count is the sum of its samples (0 when empty), its rate the count per second;
// - a submetric `name{k:v,…}` holds the samples whose tags include every k:v.
import type { Sample } from './k6-stub/harness.ts';

export type MetricType = 'trend' | 'rate' | 'counter';

/** The sink values a threshold can name, as k6 computes them; absent keys make a threshold pass. */
export function sinkValues(type: MetricType, samples: Sample[], durationS: number, percentiles: number[]): Record<string, number> {
  const values = samples.map((s) => Number(s.value));
  switch (type) {
    case 'counter': {
      const count = values.reduce((a, b) => a + b, 0);
      return { count, rate: durationS > 0 ? count / durationS : 0 };
    }
    case 'rate':
      return values.length ? { rate: values.filter((v) => v !== 0).length / values.length } : {};
    case 'trend': {
      const sorted = [...values].sort((a, b) => a - b);
      const p = (q: number) => {
        if (sorted.length === 0) return 0;
        if (sorted.length === 1) return sorted[0];
        const i = q * (sorted.length - 1);
        const lo = sorted[Math.floor(i)];
        const hi = sorted[Math.ceil(i)];
        return lo + (hi - lo) * (i - Math.floor(i));
      };
      const out: Record<string, number> = {
        min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0,
        avg: sorted.length ? values.reduce((a, b) => a + b, 0) / sorted.length : 0, med: p(0.5),
      };
      for (const q of percentiles) out[`p(${q})`] = p(q / 100);
      return out;
    }
  }
}

/** Whether `expression` ('p(95)<500', 'rate<=0', 'count>=0', …) passes on the sink values. */
export function passesK6(expression: string, values: Record<string, number>): boolean {
  const m = /^\s*([a-z]+(?:\(\d+(?:\.\d+)?\))?)\s*(<=|>=|===|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expression);
  if (!m) throw new Error(`not a k6 threshold expression: ${expression}`);
  const [, agg, op, rhs] = m;
  const lhs = values[agg];
  if (lhs === undefined) return true;
  const v = Number(rhs);
  switch (op) {
    case '<': return lhs < v;
    case '<=': return lhs <= v;
    case '>': return lhs > v;
    case '>=': return lhs >= v;
    case '!=': return lhs !== v;
    default: return lhs === v;
  }
}

/** 'http_req_duration{endpoint:chat,phase:steady}' → the metric name and the tags a sample must carry. */
export function parseSelector(selector: string): { name: string; tags: Record<string, string> } {
  const brace = selector.indexOf('{');
  if (brace < 0) return { name: selector, tags: {} };
  const tags = Object.fromEntries(selector.slice(brace + 1, -1).split(',').map((kv) => kv.split(':') as [string, string]));
  return { name: selector.slice(0, brace), tags };
}

/**
 * Every threshold of k6 options, evaluated on the samples as k6 would: a map from
 * 'metric{tags} expression' to whether it passed.
 */
export function evaluateK6Thresholds(
  thresholds: Record<string, Array<string | { threshold: string }>>,
  samples: Record<string, Sample[]>,
  types: Record<string, MetricType>,
  durationS: number,
): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const [selector, list] of Object.entries(thresholds)) {
    const { name, tags } = parseSelector(selector);
    const type = types[name];
    if (!type) throw new Error(`no type known for metric ${name}`);
    const matching = (samples[name] ?? []).filter((s) => Object.entries(tags).every(([k, v]) => s.tags?.[k] === v));
    const expressions = list.map((t) => (typeof t === 'string' ? t : t.threshold));
    const percentiles = expressions.flatMap((e) => [.../p\((\d+(?:\.\d+)?)\)/.exec(e)?.slice(1) ?? []]).map(Number);
    const values = sinkValues(type, matching, durationS, percentiles);
    for (const e of expressions) out.set(`${selector} ${e}`, passesK6(e, values));
  }
  return out;
}
