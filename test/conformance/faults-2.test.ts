// The fault matrix's second shard (test/conformance/fault-shard.ts; the catalogue's own checks, the
// first shard and the correct deployment's two runs are in faults.test.ts).
import { faultShard } from './fault-shard.ts';

faultShard(1, { cleanRuns: false });
