// Preloaded (node --require) into the desktop program under test: any attempt to open a socket,
// resolve a name or fetch is written to stderr as "SKILLPIN-NETWORK-ATTEMPT" and fails, so a test
// sees a network request the program should never make.
const net = require('node:net');
const dns = require('node:dns');
const report = (what) => {
  process.stderr.write(`SKILLPIN-NETWORK-ATTEMPT ${what}\n`);
  throw new Error(`network use is not allowed here: ${what}`);
};
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const first = args[0];
  // A local pipe by path (stdio between processes) is not network.
  if (typeof first === 'object' && first !== null && typeof first.path === 'string') return connect.apply(this, args);
  return report('socket connect');
};
dns.lookup = () => report('dns lookup');
dns.promises.lookup = () => report('dns lookup');
globalThis.fetch = () => report('fetch');
