// A failure is data, made where it happens: the check that saw the target break a
// requirement throws a CheckFailure holding the requirement, the operation, what was expected, what
// was received and the exchange that showed it. Results and every report render that record as is;
// nothing is reconstructed from messages afterwards.
import type { RequirementId } from '../../contract/requirements.ts';
import { detached, type Exchange } from './exchange.ts';

/** Who is at fault: the target (a verdict on the deployment) or the suite itself (no verdict). */
export type Culprit = 'target' | 'suite';

export interface Failure {
  /** The requirements this failure breaks (the check's own ids unless the check named one). */
  requirementIds: RequirementId[];
  operationId?: string;
  title: string;
  expected?: string;
  received?: string;
  message: string;
  exchange?: Exchange;
  /** A command that repeats the exchange, the key read from $API_KEY (or $SECOND_API_KEY…: the one it went out with). */
  curl?: string;
  /** What the reproduction needs first: the request that created the world or persona `id` it names. */
  setup?: { id: string; curl: string };
  culprit: Culprit;
  /**
   * Requirements of the check that it verified and that hold despite this failure: the failure came
   * from an assertion of a narrower requirement that the check deferred to its end (expectAlso of
   * suite/scenario/check.ts), so the check's other assertions all ran.
   */
  held?: RequirementId[];
}

export interface FailureInit {
  title: string;
  expected?: string;
  received?: string;
  exchange?: Exchange;
  /** Charge the failure to this requirement of the check (default: every id of the check). */
  requirementId?: RequirementId;
}

/** The target broke a requirement: thrown by ok(), fails() and the other expectations of suite/scenario/check.ts. */
export class CheckFailure extends Error {
  override readonly name: string = 'CheckFailure';
  readonly init: FailureInit;
  constructor(given: FailureInit) {
    // Its texts are copies: an excerpt of an answer (`reply.text.slice(0, 300)`) is a view of the
    // whole answer in V8, and a failure is kept until the run ends.
    const init = { ...given, title: detached(given.title), expected: detachedOrNot(given.expected), received: detachedOrNot(given.received) };
    super(init.received !== undefined ? `${init.title}\nexpected: ${init.expected ?? '(see title)'}\nreceived: ${init.received}` : init.title);
    this.init = init;
  }
}

const detachedOrNot = (text: string | undefined) => (text === undefined ? undefined : detached(text));

/**
 * The target failed at the transport level (connection reset, body cut, timeout, unparsable JSON
 * where JSON is promised): a failure of the target, never of the suite.
 */
export class TransportFailure extends CheckFailure {
  override readonly name: string = 'TransportFailure';
}

/**
 * The check could not look at all it is about (a generated property cut off by its time limit before
 * its runs were made): never a pass. check() records it as "not run", with this message as the reason.
 */
export class NotVerified extends Error {
  override readonly name: string = 'NotVerified';
}
