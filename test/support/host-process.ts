// Runs `bin/skillpin native-host` as a browser would: the caller as arguments, framed messages
// on stdin, framed answers read from stdout.
import { type ChildProcess, spawn } from 'node:child_process';
import { NO_NETWORK, SKILLPIN_BIN } from './desktop';

export interface HostProcess {
  child: ChildProcess;
  send(message: unknown): void;
  sendRaw(bytes: Buffer): void;
  /** The next answer (waits for it). */
  next(): Promise<Record<string, unknown>>;
  close(): Promise<number | null>;
  /** What the process wrote to stderr so far (a network attempt shows there). */
  stderr(): string;
}

export function frameOf(body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length, 0);
  return Buffer.concat([head, body]);
}

/** `bin`: another build of the program (an older version, for an upgrade test). */
export function startHost(args: string[], env: Record<string, string>, bin = SKILLPIN_BIN): HostProcess {
  const child = spawn(process.execPath, ['--require', NO_NETWORK, bin, 'native-host', ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let buffer = Buffer.alloc(0);
  const answers: Record<string, unknown>[] = [];
  const waiting: ((a: Record<string, unknown>) => void)[] = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32LE(0)) {
      const n = buffer.readUInt32LE(0);
      const answer = JSON.parse(buffer.subarray(4, 4 + n).toString('utf8')) as Record<string, unknown>;
      buffer = buffer.subarray(4 + n);
      const w = waiting.shift();
      if (w) w(answer);
      else answers.push(answer);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    send: (message) => child.stdin?.write(frameOf(Buffer.from(JSON.stringify(message)))),
    sendRaw: (bytes) => child.stdin?.write(bytes),
    next: () => {
      const a = answers.shift();
      return a ? Promise.resolve(a) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => {
      child.stdin?.end();
      return exited;
    },
    stderr: () => stderr,
  };
}
