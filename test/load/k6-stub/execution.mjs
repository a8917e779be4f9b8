// Stand-in for 'k6/execution': the iteration counter, scenario start and the test's options
// (k6 gives them with the execution segment a distributed runner runs) come from the test.
export default {
  scenario: {
    get iterationInTest() { return globalThis.__k6.iteration; },
    get startTime() { return globalThis.__k6.scenarioStart; },
  },
  test: {
    abort(reason) { throw new Error(`test aborted: ${reason}`); },
    get options() { return globalThis.__k6.options ?? { executionSegment: null }; },
  },
};
