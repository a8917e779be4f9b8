// Stand-in for 'k6/http': synchronous, answered by globalThis.__k6.respond, every call recorded.
// Like k6 it also emits the built-in samples (http_reqs, http_req_duration, http_req_failed) with
// the request's tags, the scenario's tags and the status, so that thresholds can be evaluated on
// what a run emitted (test/load/k6-rules.ts).
export function expectedStatuses(...statuses) {
  return { expectedStatuses: statuses };
}
const expected = (callback, status) => {
  // k6's default: 200–399 is expected.
  const list = callback ? callback.expectedStatuses : [{ min: 200, max: 399 }];
  return list.some((s) => (typeof s === 'number' ? s === status : status >= s.min && status <= s.max));
};
const emit = (name, value, tags) => (globalThis.__k6.metrics[name] ??= []).push({ value, tags });
export function request(method, url, body, params) {
  const call = { method, url, body, params };
  const k6 = globalThis.__k6;
  k6.requests.push(call);
  const res = k6.respond(call);
  const tags = { ...(k6.scenarioTags ?? {}), ...(params.tags ?? {}), status: String(res.status) };
  emit('http_reqs', 1, tags);
  emit('http_req_duration', res.duration ?? 1, tags);
  emit('http_req_failed', !expected(params.responseCallback, res.status), tags);
  return res;
}
export default { request, expectedStatuses };
