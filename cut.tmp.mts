import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
const DOCUMENT = readFileSync('contract/openapi.json', 'utf8');
const mode = process.argv[2];
const KEY='mk_test_hostile_key_0123456789abcdef';
const server = createServer((req, res) => {
  if (req.url === '/openapi.json') { res.writeHead(200, { 'content-type': 'application/json' }).end(DOCUMENT); return; }
  if (req.url === '/worlds?limit=1') { res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":{"worlds":[]}}'); return; }
  if (mode === 'cut') { res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' }); res.write('{"result":{"wor'); setTimeout(() => res.destroy(), 20); return; }
  const key = String(req.headers['x-api-key'] ?? ''); const b64 = Buffer.from(key).toString('base64');
  res.writeHead(200, { 'content-type': 'application/json', 'x-echo': b64 });
  res.end(JSON.stringify({ result: { worldId: `w-${b64}`, plain: key } }));
});
server.listen(4111, '127.0.0.1');
setTimeout(() => process.exit(0), 40000);
