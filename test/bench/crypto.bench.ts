// 5. Crypto choices: SHA-256 and Ed25519 verification, WebCrypto against @noble, for 1 KiB,
// 64 KiB and 256 KiB inputs, under node and inside the extension's service worker.
import { test, expect } from '@playwright/test';
import { runCryptoCases, type CryptoResult } from './support/crypto-cases';
import { bundleForWorker } from './support/bundle';
import { launchBench } from './support/browser';
import { fmt, summarize } from './support/stats';
import { reproCommand, writeSection, type BenchSection, type TargetCheck } from './support/results';

const KIB = (n: number): string => `${n / 1024} KiB`;

interface WorkerBench {
  runCryptoCases(env: string): Promise<CryptoResult>;
}

test('crypto backends under node and in the Chromium service worker', async () => {
  const started = Date.now();
  const results: CryptoResult[] = [await runCryptoCases('node ' + process.version)];

  const code = await bundleForWorker('test/bench/support/crypto-cases.ts', '__skillpinCryptoBench');
  const b = await launchBench(true);
  try {
    const sw = b.sw;
    if (!sw) throw new Error('no service worker');
    await sw.evaluate(code);
    const version = await sw.evaluate(() => navigator.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium');
    results.push(await sw.evaluate((env) => (globalThis as unknown as { __skillpinCryptoBench: WorkerBench }).__skillpinCryptoBench.runCryptoCases(env), `service worker (${version})`));
  } finally {
    await b.close();
  }

  const rows: (string | number)[][] = [];
  const targets: TargetCheck[] = [];
  const notes: string[] = [];
  for (const r of results) {
    for (const op of ['sha256', 'ed25519-verify'] as const) {
      for (const size of [...new Set(r.rows.filter((x) => x.op === op).map((x) => x.size))]) {
        const cases = r.rows.filter((x) => x.op === op && x.size === size);
        const med = new Map(cases.map((c) => [c.backend, summarize(c.samples)]));
        const wc = cases.find((c) => c.backend.startsWith('WebCrypto') && (op === 'sha256' || c.backend.includes('strict')));
        const js = cases.find((c) => c.backend.startsWith('@noble'));
        const product = cases.find((c) => c.backend.startsWith('product'));
        for (const c of cases) {
          const s = med.get(c.backend);
          if (!s) continue;
          const ratio = js && c !== js ? (med.get(js.backend)?.median ?? NaN) / s.median : NaN;
          rows.push([
            r.env,
            op,
            KIB(size),
            c.backend,
            `${fmt(s.median * 1000, 1)} µs`,
            `${fmt(s.p25 * 1000, 1)}–${fmt(s.p75 * 1000, 1)} µs`,
            Number.isFinite(ratio) ? `${fmt(ratio, 2)}×` : '—',
            c.ok ? 'yes' : 'NO',
            reproCommand('crypto.bench.ts'),
          ]);
        }
        if (wc && js && product) {
          // The product's choice at this size: SHA-256 goes to WebCrypto from webCryptoMinBytes on,
          // Ed25519 to the backend detected at start-up. The choice is right when it is the faster
          // bare backend, or within 10 % of it (a tie on this noisy machine).
          const chosen = op === 'sha256' ? (size >= r.webCryptoMinBytes ? wc : js) : r.ed25519Backend === 'webcrypto' ? wc : js;
          const other = chosen === wc ? js : wc;
          const mChosen = med.get(chosen.backend)?.median ?? Infinity;
          const mOther = med.get(other.backend)?.median ?? Infinity;
          const mProduct = med.get(product.backend)?.median ?? Infinity;
          const met = mChosen <= mOther * 1.1;
          targets.push({
            what: `${r.env}: ${op} ${KIB(size)} goes to the faster backend`,
            target: 'the backend the product picks is the faster one (or within 10 %)',
            measured: `picks ${chosen === wc ? 'WebCrypto' : '@noble'} (${fmt(mChosen * 1000, 1)} µs) over ${other === wc ? 'WebCrypto' : '@noble'} (${fmt(mOther * 1000, 1)} µs); the product call costs ${fmt(mProduct * 1000, 1)} µs`,
            met,
            ...(met
              ? {}
              : {
                  why:
                    op === 'sha256'
                      ? `lib/verify/sha256.ts sends inputs below WEBCRYPTO_MIN_BYTES (${r.webCryptoMinBytes} B, tuned under node) to @noble; in this environment WebCrypto is already faster at ${KIB(size)}`
                      : `lib/verify/ed25519.ts picked ${r.ed25519Backend} at start-up`,
                }),
          });
        }
        for (const c of cases) expect(c.ok, `${r.env} ${op} ${size} ${c.backend} gives the right answer`).toBe(true);
      }
    }
    notes.push(`${r.env}: Ed25519 backend detected by the product: ${r.ed25519Backend}; SHA-256 goes to WebCrypto from ${r.webCryptoMinBytes} bytes on.`);
  }
  notes.push(
    'Per-operation times are medians of 12 batches (each batch ≥ 8 ms of back-to-back calls), backends interleaved batch by batch. "vs @noble" is the JS backend\'s median divided by this row\'s (> 1: this row is faster).',
  );
  notes.push('"WebCrypto subtle.verify (bare)" has no strict checks (canonical key and R, S < L, small order): the product never uses it alone; it shows what the strict checks cost on top.');

  const section: BenchSection = {
    id: '5-crypto',
    title: '5. Crypto backends (WebCrypto vs @noble)',
    columns: ['environment', 'operation', 'input', 'backend', 'median per op', 'IQR', 'vs @noble', 'correct', 'reproduce'],
    rows,
    targets,
    notes,
    raw: { results },
    seconds: (Date.now() - started) / 1000,
  };
  writeSection(section);
});
