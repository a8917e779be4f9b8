// The served OpenAPI document linted as its users' tools lint it: Spectral's `spectral:oas` ruleset
// and Redocly's `recommended` rules, both as libraries (no CLI), on the document as JSON text.
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { createConfig, lintFromString } from '@redocly/openapi-core';

export interface Finding { tool: 'spectral' | 'redocly'; rule: string; severity: 'error' | 'warning' | 'info' | 'hint'; where: string; message: string }

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

export async function spectralFindings(document: unknown): Promise<Finding[]> {
  const { Spectral, Document } = spectralCore as unknown as typeof import('@stoplight/spectral-core');
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[(spectralRulesets as unknown as typeof import('@stoplight/spectral-rulesets')).oas, 'recommended']] } as never);
  const results = await spectral.run(new Document(JSON.stringify(document, null, 2), (spectralParsers as unknown as typeof import('@stoplight/spectral-parsers')).Json, 'openapi.json'));
  return results.map((r) => ({
    tool: 'spectral', rule: String(r.code), severity: SPECTRAL_SEVERITY[r.severity], where: r.path.join('.'), message: r.message,
  }));
}

export async function redoclyFindings(document: unknown): Promise<Finding[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document, null, 2), absoluteRef: 'openapi.json', config });
  return problems.map((p) => ({
    tool: 'redocly', rule: p.ruleId, severity: p.severity === 'error' ? 'error' : 'warning',
    where: p.location[0]?.pointer ?? '', message: p.message,
  }));
}

