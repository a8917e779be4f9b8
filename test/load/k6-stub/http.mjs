// Stand-in for 'k6/http': synchronous, answered by globalThis.__k6.respond, every call recorded.
export function expectedStatuses(...statuses) {
  return { expectedStatuses: statuses };
}
export function request(method, url, body, params) {
  const call = { method, url, body, params };
  globalThis.__k6.requests.push(call);
  return globalThis.__k6.respond(call);
}
export default { request, expectedStatuses };
