// Stand-in for 'k6/execution': the iteration counter and scenario start come from the test.
export default {
  scenario: {
    get iterationInTest() { return globalThis.__k6.iteration; },
    get startTime() { return globalThis.__k6.scenarioStart; },
  },
  test: { abort(reason) { throw new Error(`test aborted: ${reason}`); } },
};
