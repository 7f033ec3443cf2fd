// Prints the rows of the review section of docs/reliability.md as JSON: bundled and run by
// scripts/lib/reliability-report.mjs (`npm run docs`), which renders them.
import { ACTS_EXPLAINED, reviewRows } from './corpus-review';

reviewRows().then(
  (rows) => {
    process.stdout.write(JSON.stringify({ rows, explained: ACTS_EXPLAINED }));
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
