// The part of k6-operator's TestRun custom resource (apiVersion k6.io/v1alpha1; its CRD is
// config/crd/bases/k6.io_testruns.yaml in grafana/k6-operator) that load/README.md's manifest
// uses, as a JSON Schema. Types, enums and required members are the CRD's. One difference, on
// purpose: the CRD lets Kubernetes prune unknown members silently (a misspelt `configmap` would
// vanish and the run would have no script), so here every object refuses members it does not know.
const str = { type: 'string' } as const;
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required, additionalProperties: false });

const keyRef = closed({ key: str, name: str, optional: { type: 'boolean' } }, ['key']);

/** A container's environment variable (core/v1 EnvVar), as the CRD embeds it for runner.env. */
const envVar = closed({
  name: str,
  value: str,
  valueFrom: closed({ secretKeyRef: keyRef, configMapKeyRef: keyRef }),
}, ['name']);

export const TESTRUN_SCHEMA = closed({
  apiVersion: { const: 'k6.io/v1alpha1' },
  kind: { const: 'TestRun' },
  metadata: closed({ name: str, namespace: str }, ['name']),
  spec: closed({
    // int32 in the CRD.
    parallelism: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    script: closed({
      configMap: closed({ name: str, file: str }, ['name']),
      volumeClaim: closed({ name: str, file: str, readOnly: { type: 'boolean' } }, ['name']),
      localFile: str,
    }),
    arguments: str,
    separate: { type: 'boolean' },
    cleanup: { enum: ['post'] },
    runner: closed({ env: { type: 'array', items: envVar } }),
  }, ['parallelism', 'script']),
}, ['apiVersion', 'kind', 'metadata', 'spec']);
