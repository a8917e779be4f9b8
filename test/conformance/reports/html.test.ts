// The HTML page shows what an untrusted deployment sent, to people, in a browser: nothing it sends may
// become markup. It must also stand alone (a CI artifact opened offline).
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../../suite/reports/html.ts';
import { check, failingRun, HOSTILE, passingRun } from './fixtures.ts';

/** The elements the page itself emits; anything else in a tag position came from data. */
const OURS = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'header', 'main', 'h1', 'h2', 'h3', 'p', 'dl', 'dt', 'dd', 'table', 'tr', 'th', 'td', 'span', 'q', 'ul', 'li', 'a', 'pre', 'div', 'section', 'code']);
const tags = (html: string) => [...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1].toLowerCase());

function hostileRun() {
  const result = failingRun();
  // Untrusted text in every kind of place: a title, an area, a reason, the drift, the configuration.
  result.checks.push(check(`a"rea<b>`, ['WORLD-2'], `<img src=x onerror=alert(1)> "quoted' title`, 'not-run', { reason: `needs <iframe src=//evil>` }));
  result.drift.push('<svg onload=alert(1)>');
  result.config.evil = `"><script>alert(2)</script>`;
  return result;
}

describe('renderHtml', () => {
  const html = renderHtml(hostileRun());

  it('escapes every value: a <script> in a response body stays text', () => {
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;quoted&#39; title');
    expect(html).toContain('&lt;svg onload=alert(1)&gt;');
    expect(html).not.toMatch(/<script|<img|<svg|<iframe|<b>/i);
    expect(new Set(tags(html).filter((t) => !OURS.has(t)))).toEqual(new Set());
    // The check above can fail: the same scan finds the fixture's markup when it is not escaped.
    expect(tags(HOSTILE)).toEqual(['script', 'script']);
  });

  it('stands alone: inline CSS, no script, no external asset, scripts forbidden by CSP', () => {
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<link|@import|url\(|\bsrc="|href="(?!#)/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it('shows the verdict, target, run id, duration and request count', () => {
    expect(html).toContain('<p class="verdict fail">FAIL: 1 MUST requirement broken (1 SHOULD warning)</p>');
    expect(renderHtml(passingRun())).toContain('<p class="verdict pass">PASS: all 2 MUST requirements verified and hold (1 SHOULD warning)</p>');
    for (const fact of ['<dd>http://127.0.0.1:4010</dd>', '<dd>r20240101-abc123</dd>', '<dd>41.2 s</dd>', '<dt>Requests</dt><dd>5</dd>']) expect(html).toContain(fact);
  });

  it('has the requirement matrix grouped by area, with clause and checks', () => {
    const result = failingRun();
    for (const q of result.requirements) expect(html).toContain(`<tr id="req-${q.id}"><td class="id">${q.id}</td><td>${q.level}</td>`);
    expect(html).toContain('<tr class="area"><th colspan="6">isolation</th></tr>');
    expect(html).toMatch(/<tr id="req-AUTH-2">.*<span class="badge fail">fail<\/span>.*<q>Authentication 1: &quot;A missing or invalid key/);
    // A failing check links to its failure.
    expect(html).toMatch(/<a href="#check-1">auth: answers 401 UNAUTHORIZED with an invalid key<\/a>/);
    expect(html).toContain('<section class="failure fail" id="check-1">');
  });

  it('has the counts table and the endpoint coverage', () => {
    expect(html).toMatch(/<tr><th>MUST<\/th><td class="num">1<\/td><td class="num">1<\/td><td class="num">0<\/td><td class="num">0<\/td><td class="num">1<\/td><td class="num">2<\/td><td class="num">1<\/td><td class="num">6<\/td><\/tr>/);
    expect(html).toContain('<tr><td>listWorlds</td><td>GET</td><td>/worlds</td><td class="num">1</td><td><span class="badge fail">fail</span> 1</td></tr>');
    expect(html).toContain('<tr><td>interact</td><td>POST</td><td>/worlds/{id}/interact</td><td class="num">0</td><td><span class="muted">not exercised</span></td></tr>');
  });

  it('shows each failure with expected vs received, the response and the curl (key as $API_KEY)', () => {
    const failure = /<section class="failure fail" id="check-1">([\s\S]*?)<\/section>/.exec(html)![1];
    expect(failure).toContain('<div class="label">Expected</div><pre>401</pre>');
    expect(failure).toContain('<div class="label">Received</div><pre>200</pre>');
    expect(failure).toContain('Response: GET http://127.0.0.1:4010/worlds?limit=1 → 200 OK');
    expect(failure).toContain(`<div class="label">Reproduce with:</div><pre>curl -i -X GET &#39;http://127.0.0.1:4010/worlds?limit=1&#39; -H &quot;X-API-Key: $API_KEY&quot;`);
  });

  it('lists not-run checks by reason, the drift and the configuration', () => {
    expect(html).toMatch(/<h3>needs --second-key <span class="muted">\(2\)<\/span><\/h3><ul><li>.*\[ISO-1\].*\[ISO-2\]/);
    expect(html).toContain('<li>GET /worlds: the served document declares a 418 response &lt;teapot&gt; that the bundled contract lacks</li>');
    expect(html).toContain('<tr><th>api-key</th><td><code>mk_test_…(redacted)</code></td></tr>');
  });
});

describe('the requirement matrix', () => {
  it('never wraps an id, and says a reason shared by many requirements once, above it', () => {
    const result = failingRun();
    const reason = 'not run: interrupted (SIGINT)';
    const stop = (q: (typeof result.requirements)[number]) => ({ ...q, outcome: 'not-run' as const, checks: [reason] });
    const [first, ...rest] = result.requirements;
    result.requirements = [first, ...rest.map(stop), ...['PROG-1', 'PROG-2', 'PROG-3'].map((id) => stop({ ...first, id: id as typeof first.id }))];
    const html = renderHtml(result);
    const stopped = result.requirements.length - 1;
    expect(stopped).toBeGreaterThan(3);
    expect(html.split(reason).length - 1).toBe(1);
    expect(html).toContain(`${stopped} requirements: ${reason}`);
    expect(html).toMatch(/<tr id="req-[A-Z]+-\d+"><td class="id">/);
    expect(html).toMatch(/\.matrix td\.id \{ white-space: nowrap;/);
  });
});
