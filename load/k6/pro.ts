// k6 entry script of the pro tier: k6 reads these exports (options, the scenario functions
// named by options.scenarios[*].exec, setup, teardown, handleSummary). Built by load/build.ts.
import { createScript } from './script.ts';

const script = createScript('pro');
export const options = script.options;
export const setup = script.setup;
export const steady = script.steady;
export const ramp = script.ramp;
export const teardown = script.teardown;
export const handleSummary = script.handleSummary;
