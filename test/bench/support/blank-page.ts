/**
 * A blank extension page (one paragraph, no script, no style) that only the bench build carries
 * (test/bench/wxt.bench.config.ts): the floor the popup's first cards are measured against
 * (the goal: ≤ a blank extension page + 40 ms).
 */
export const BENCH_BLANK_PAGE = 'bench-blank.html';

export const BENCH_BLANK_HTML = '<!doctype html><meta charset=utf-8><title>blank</title><p>blank</p>\n';
