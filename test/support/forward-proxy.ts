import { once } from 'node:events';
import { createServer, request } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** One request a {@link startForwardProxy} forwarded. */
export interface ProxiedRequest {
  /** `GET` for an absolute-form request (plain http), `CONNECT` for a tunnel (https). */
  readonly method: string;
  readonly host: string;
  readonly port: number;
  /** The path of a GET; empty for a CONNECT. */
  readonly path: string;
}

export interface ForwardProxy {
  readonly url: string;
  readonly requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * A forwarding HTTP proxy on 127.0.0.1, as curl and browsers use one: absolute-form requests
 * (`GET http://host:port/path`) are forwarded, with a `Via: 1.1 test-proxy` header; `CONNECT
 * host:port` opens a tunnel. `portOf` says which loopback port serves a host (undefined: 502); the
 * proxy never connects anywhere but 127.0.0.1.
 *
 * @example
 * const proxy = await startForwardProxy((host) => (host === 'a.test' ? 8080 : undefined));
 */
export async function startForwardProxy(portOf: (host: string, port: number) => number | undefined): Promise<ForwardProxy> {
  const requests: ProxiedRequest[] = [];
  const tunnels = new Set<Socket>();
  const server = createServer((req, res) => {
    if (!req.url?.startsWith('http://')) return res.writeHead(400).end('absolute-form only');
    const target = new URL(req.url);
    const port = Number(target.port) || 80;
    requests.push({ method: req.method ?? '', host: target.hostname, port, path: target.pathname + target.search });
    const to = portOf(target.hostname, port);
    if (to === undefined) return res.writeHead(502).end();
    const headers = { ...req.headers, via: '1.1 test-proxy' };
    delete (headers as Record<string, unknown>)['proxy-connection'];
    const upstream = request({ host: '127.0.0.1', port: to, path: target.pathname + target.search, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const [host = '', portText = '443'] = (req.url ?? '').split(/:(?=\d+$)/);
    requests.push({ method: 'CONNECT', host, port: Number(portText), path: '' });
    const to = portOf(host, Number(portText));
    if (to === undefined) return client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    const upstream = connect(to, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const s of [client, upstream]) {
      tunnels.add(s);
      s.on('error', () => s.destroy()).on('close', () => tunnels.delete(s));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const s of tunnels) s.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
