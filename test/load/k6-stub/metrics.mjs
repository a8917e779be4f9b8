// Stand-in for 'k6/metrics': every add is recorded under the metric's name, with the scenario's
// tags merged in as k6 does.
class Metric {
  constructor(name) { this.name = name; globalThis.__k6.metrics[name] ??= []; }
  add(value, tags) { globalThis.__k6.metrics[this.name].push({ value, tags: { ...(globalThis.__k6.scenarioTags ?? {}), ...(tags ?? {}) } }); }
}
export class Counter extends Metric {}
export class Rate extends Metric {}
export class Trend extends Metric {}
