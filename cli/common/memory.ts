// What the conformance command sets before it loads anything large, so that its process tree fits a
// small CI container: measured against a served reference and against a target answering 2 GiB to every
// request (`node --import tsx bench/memory.ts`; docs/benchmarks.md, "Memory").
import { setFlagsFromString } from 'node:v8';

/** V8's heap grows by at most this percent past what a full collection left (its own choice: up to 300%). */
const HEAP_GROWING_PERCENT = 25;

export function fitSmallContainer(): void {
  // Vite's bundler, rolldown, allocates with mimalloc 3, which commits each 1 GiB arena it reserves
  // at once and asks the kernel for huge pages on it: 80–100 MB resident beyond what it uses. Told
  // not to commit eagerly, it touches only what it allocates. mimalloc reads its options from the
  // environment when its library is loaded, so this is set before vitest is imported (the scenario
  // workers are threads of this process and share the allocator). A value the user set is kept.
  process.env.MIMALLOC_ARENA_EAGER_COMMIT ??= '0';
  // The command's heaps (its own and its workers') are collected before they grow by more than a
  // quarter, not by up to four times: 15–20 MB less at the peak, at no CPU time measurable in a run.
  // V8 reads the factor at each full collection, so a flag set now applies to the running heap too.
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
