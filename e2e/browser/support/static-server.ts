// A remote served from somewhere else than the gateway (another origin, as a CDN would be), which a
// test can stop and start again on the same port to play a remote going down and coming back.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.map': 'application/json',
  '.css': 'text/css',
};

export interface StaticServer {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function staticServer(root: string, port: number): StaticServer {
  let server: Server | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    async start() {
      const s = createServer((req, res) => {
        const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!)).replace(/^(\.\.[/\\])+/, '');
        const file = join(root, path);
        res.setHeader('Access-Control-Allow-Origin', '*');
        void stat(file)
          .then((info) => info.isFile())
          .catch(() => false)
          .then((isFile) => {
            if (!isFile) {
              res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
              return;
            }
            res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
            createReadStream(file).pipe(res);
          });
      });
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
      server = s;
    },
    async stop() {
      const s = server;
      server = undefined;
      if (!s) return;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
