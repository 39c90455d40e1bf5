// Test-only: makes a Node process resolve every name under `lectern.test` to 127.0.0.1, as DNS or
// /etc/hosts would for a real deployment, so that data-ops (which builds https://manage.<domain>,
// https://deliver.<domain>, https://preview-deliver.<domain> from one --kontentUrl) reaches the
// host-routing port of a Lectern on this machine. Loaded with `node --import`.
import dns from 'node:dns';

const lookup = dns.lookup;
dns.lookup = function lookupTestHosts(hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  if (typeof hostname === 'string' && /(^|\.)lectern\.test\.?$/i.test(hostname)) {
    const isAll = typeof options === 'object' && options !== null && options.all === true;
    process.nextTick(() => (isAll ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4)));
    return {};
  }
  return lookup.apply(this, arguments);
};
