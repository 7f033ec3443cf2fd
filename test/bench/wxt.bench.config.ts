import { defineConfig } from 'wxt';
import base from '../../wxt.config';
import { BENCH_BLANK_HTML, BENCH_BLANK_PAGE } from './support/blank-page';

// The production build plus hidden source maps (the shipped files are byte-identical but for
// the maps beside them, which the bundle-size bench reads) and the blank page above, in its own
// folder so that a build someone else starts does not replace the extension under a running benchmark.
export default defineConfig({
  ...base,
  outDir: '.output/bench',
  vite: (env) => {
    const v = typeof base.vite === 'function' ? base.vite(env) : {};
    return { ...v, build: { ...(v as { build?: object }).build, sourcemap: 'hidden' } };
  },
  hooks: {
    ...base.hooks,
    'build:publicAssets': (_wxt, files) => {
      files.push({ relativeDest: BENCH_BLANK_PAGE, contents: BENCH_BLANK_HTML });
    },
  },
});
