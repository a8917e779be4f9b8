// The terminal rendering is what a person reads first after a red CI run: its layout is pinned by
// snapshots, so a change to it shows up in review.
import type { RequirementId } from '../../../contract/requirements.ts';
import { describe, expect, it } from 'vitest';
import { renderFailure, renderSummary } from '../../../suite/reports/terminal.ts';
import { SHOWN_BODY } from '../../../suite/reports/failure-view.ts';
import { exchange, failingRun, mustFail, notRun, passingRun, requirement, run, shouldWarn, check } from './fixtures.ts';

const PATHS = { junit: '/tmp/r/junit.xml', json: '/tmp/r/results.json', html: '/tmp/r/report.html' };
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1);

describe('renderFailure', () => {
  it('shows heading, expected vs received, message, response, then the curl with $API_KEY', () => {
    expect(renderFailure(mustFail())).toMatchInlineSnapshot(`
      "✗ [AUTH-2] answers 401 UNAUTHORIZED with an invalid key (auth)
        Expected: 401
        Received: 200
        expected 401 UNAUTHORIZED, got 200 \\x1b[2J\\x00\\x07 key mk_live_…(redacted)
        Response: GET http://127.0.0.1:4010/worlds?limit=1 → 200 OK (12 ms)
          content-type: application/json; charset=utf-8
          {
            "result": {
              "items": [
                {
                  "id": "w_1",
                  "name": "<script>alert(1)</script>",
                  "echo": "mk_test_…(redacted)",
                  "debug": "mk_live_…(redacted)"
                }
              ]
            }
          }
        Reproduce with:
          curl -i -X GET 'http://127.0.0.1:4010/worlds?limit=1' -H "X-API-Key: $API_KEY" -H 'accept: application/json'"
    `);
  });

  it('renders a failure without an exchange, and an error, in the same layout', () => {
    const { checks } = failingRun();
    expect(renderFailure(checks.find((c) => c.outcome === 'error')!)).toMatchInlineSnapshot(`
      "‼ [SIM-1] advances the clock by the requested ticks (simulation)
        TypeError: Cannot read properties of undefined (reading 'id')
        Response: none recorded for this check"
    `);
  });

  it('cuts the body to about 1 KB and says how much was left out', () => {
    const c = mustFail();
    c.failure!.exchange = exchange({ operationId: 'listWorlds', method: 'GET', path: '/worlds', status: 200, body: 'x'.repeat(5000) });
    c.failure!.curl = undefined; // rebuilt from the exchange
    const text = renderFailure(c);
    expect(text).toContain(`${'x'.repeat(SHOWN_BODY)}…(${5000 - SHOWN_BODY} more characters)`);
    expect(text).not.toContain('x'.repeat(SHOWN_BODY + 1));
    expect(text).toContain(`Reproduce with:\n    curl -i -X GET 'http://127.0.0.1:4010/worlds' -H "X-API-Key: $API_KEY"`);
  });

  it('never passes a terminal escape from the deployment through, with or without colour', () => {
    for (const color of [false, true]) {
      const text = renderFailure(mustFail(), { color });
      expect(text).not.toContain('\u001b[2J');
      expect(text).not.toMatch(/[\u0000\u0007]/);
      expect(text).toContain('\\x1b[2J\\x00\\x07');
    }
    expect(renderFailure(mustFail())).not.toContain('\u001b');
    expect(renderFailure(mustFail(), { color: true })).toContain('\u001b[1;31m✗ [AUTH-2]');
  });
});

describe('renderSummary', () => {
  it('lists failures, errors, warnings, not run by flag, the counts, the paths, then the verdict', () => {
    expect(renderSummary(failingRun(), { paths: PATHS })).toMatchInlineSnapshot(`
      "Failures: 1 requirement broken, in 1 check, from 1 cause

      ✗ [AUTH-2] answers 401 UNAUTHORIZED with an invalid key (auth)
        Expected: 401
        Received: 200
        expected 401 UNAUTHORIZED, got 200 \\x1b[2J\\x00\\x07 key mk_live_…(redacted)
        Response: GET http://127.0.0.1:4010/worlds?limit=1 → 200 OK (12 ms)
          content-type: application/json; charset=utf-8
          {
            "result": {
              "items": [
                {
                  "id": "w_1",
                  "name": "<script>alert(1)</script>",
                  "echo": "mk_test_…(redacted)",
                  "debug": "mk_live_…(redacted)"
                }
              ]
            }
          }
        Reproduce with:
          curl -i -X GET 'http://127.0.0.1:4010/worlds?limit=1' -H "X-API-Key: $API_KEY" -H 'accept: application/json'
        To accept it for a while, in the --known-failures file (1 entry):
          - id: AUTH-2
            operation: "listWorlds"
            reason: "why it is accepted, and the ticket that fixes it"
            expires: 2024-01-31

      Errors (1): faults of the suite, not counted against the target

      ‼ [SIM-1] advances the clock by the requested ticks (simulation)
        TypeError: Cannot read properties of undefined (reading 'id')
        Response: none recorded for this check

      Warnings (1): SHOULD requirements; --strict makes them fail

        ⚠ [ERR-5] PERSONA_NOT_FOUND comes with status 404 (errors)
            expected 404, received 400

      Not run (3), by what would enable them

        needs --second-key (2):
          ○ [ISO-1] another tenant's world is answered 404 WORLD_NOT_FOUND (isolation)
          ○ [ISO-2] another tenant's worlds are never listed (isolation)
        needs --allow-billable (1):
          ○ [SIM-8] interact answers with the persona reply (simulation)

      Skipped (1): the target lacks an optional feature

        enterprise plan: no fixed limit to compare with (1):
          - [RATE-4] accepts about the plan limit before the first 429 (rate-limit)

      Requirements  pass  fail  warn  partly verified  skip  not run  error  total
      MUST             1     1     0                0     1        2      1      6
      SHOULD           0     0     1                0     0        1      0      2

      Checks:   8, 5 requests in 41.2 s
      Target:   http://127.0.0.1:4010
      Run:      r20240101-abc123
      Reports:  /tmp/r/report.html
                /tmp/r/junit.xml
                /tmp/r/results.json

      FAIL: 1 MUST requirement broken (1 SHOULD warning)"
    `);
  });

  it('groups not-run checks under the flag that would enable them', () => {
    const text = renderSummary(failingRun());
    expect(text).toMatch(/ {2}needs --second-key \(2\):\n {4}○ \[ISO-1\][^\n]*\n {4}○ \[ISO-2\]/);
    expect(text).toMatch(/ {2}needs --allow-billable \(1\):\n {4}○ \[SIM-8\]/);
  });

  it('counts requirements no check covered, listing every id of a gap in a selected area', () => {
    const result = failingRun();
    const deselected: RequirementId[] = ['AUTH-1', 'AUTH-3', 'AUTH-4', 'AUTH-5', 'AUTH-6', 'AUTH-7', 'RATE-1', 'RATE-2', 'RATE-3'];
    result.requirements.push(...deselected.map((id) => requirement(id, 'not-run', ['area not selected (--only)'])), requirement('WORLD-2', 'not-run', ['no check ran']));
    expect(renderSummary(result)).toContain([
      'Requirements no check verified in this run',
      '',
      '  area not selected (--only): 9 requirements',
      '    AUTH-1, AUTH-3, AUTH-4, AUTH-5, AUTH-6, AUTH-7, RATE-1, RATE-2, …',
      '  no check ran: 1 requirement',
      '    WORLD-2',
    ].join('\n'));
    expect(renderSummary(failingRun())).not.toContain('Requirements no check verified');
  });

  it('ends with PASS when every MUST holds, counting SHOULD warnings', () => {
    expect(lastLine(renderSummary(passingRun()))).toBe('PASS: all 2 MUST requirements verified and hold (1 SHOULD warning)');
  });

  it('says in one line how many answers the HTTP stack refused before the service, and that they were not judged', () => {
    const first = 'GET getWorld: refused by the HTTP stack before the service: 414 (text/html) to a request line and headers of 6,140 bytes (SPEC.md: request size limits "not shown")';
    const summary = renderSummary({ ...passingRun(), refusedByStack: { count: 3, first } });
    expect(summary.split('\n').filter((l) => l.startsWith('Stack:'))).toEqual([`Stack:    3 answers refused by the HTTP stack before the service, not judged; the first: ${first}`]);
    expect(lastLine(summary)).toBe('PASS: all 2 MUST requirements verified and hold (1 SHOULD warning)');
    expect(renderSummary(passingRun())).not.toContain('Stack:');
  });

  it('ends with FAIL naming how many MUST requirements are broken', () => {
    expect(lastLine(renderSummary(failingRun()))).toBe('FAIL: 1 MUST requirement broken (1 SHOULD warning)');
  });

  it('says FAIL for a SHOULD broken under --strict, and PASS without claiming what did not run', () => {
    const strict = run([{ ...shouldWarn(), outcome: 'fail' }], [requirement('WORLD-1', 'pass', []), requirement('ERR-5', 'fail', [])], 1);
    expect(lastLine(renderSummary(strict))).toBe('FAIL: 1 SHOULD requirement broken (--strict)');
    const partial = run([check('worlds', ['WORLD-1'], 'ok', 'pass'), notRun(['ISO-1'], 'iso', 'needs --second-key')],
      [requirement('WORLD-1', 'pass', []), requirement('ISO-1', 'not-run', []), requirement('SIM-1', 'error', [])], 0);
    expect(lastLine(renderSummary(partial))).toBe('PASS: 1 of 3 MUST requirements verified and hold; 1 not run (ISO-1), 1 erred');
  });

  it('is plain text unless colour is asked for', () => {
    expect(renderSummary(failingRun())).not.toContain('\u001b');
    expect(renderSummary(failingRun(), { color: true })).toContain('\u001b[1;31mFAIL: 1 MUST requirement broken');
  });
});
