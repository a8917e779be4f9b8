// The document the reference serves passes the linters its users run on it: Spectral's
// `spectral:oas` and Redocly's `recommended` rules, with no error and no warning but those justified
// in docs/reference.md ("Its served document").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { redoclyFindings, spectralFindings, type Finding } from './openapi-lint.ts';
import { budget } from '../budget.ts';

/** Warnings left on purpose, each with its reason in docs/reference.md. */
const JUSTIFIED = new Set(['redocly info-license']);

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => h.close());

const unjustified = (findings: Finding[]) =>
  findings.filter((f) => f.severity === 'error' || !JUSTIFIED.has(`${f.tool} ${f.rule}`)).map((f) => `${f.tool} ${f.severity} ${f.rule} at ${f.where}: ${f.message}`);

describe('GET /openapi.json, linted', () => {
  it('passes spectral:oas with no error and no warning', async () => {
    expect(unjustified(await spectralFindings(h.document))).toEqual([]);
  }, budget(60_000));

  it('passes Redocly\'s recommended rules with no error and only the justified warnings', async () => {
    expect(unjustified(await redoclyFindings(h.document))).toEqual([]);
  }, budget(60_000));

  it('the linters do report a broken document (they are really run)', async () => {
    const broken = structuredClone(h.document);
    delete broken.servers;
    delete broken.paths['/worlds'].get.description;
    broken.paths['/worlds'].get.responses = {};
    const spectral = unjustified(await spectralFindings(broken));
    const redocly = unjustified(await redoclyFindings(broken));
    expect(spectral.some((f) => f.includes('operation-description'))).toBe(true);
    expect(redocly.some((f) => f.includes('error') && f.includes('no-empty-servers'))).toBe(true);
  }, budget(60_000));
});
